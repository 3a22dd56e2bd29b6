"""docs/ops.md, the coverage table the README links to, is what `thundercc ops --format markdown`
prints today (regenerate it with that command)."""
from conftest import REPO


def test_coverage_table_is_up_to_date(thundercc):
    printed = thundercc("ops", "--format", "markdown").stdout
    assert printed == (REPO / "docs" / "ops.md").read_text(), "regenerate: build/thundercc ops --format markdown > docs/ops.md"
    assert printed.count("| decomposition |") >= 140
