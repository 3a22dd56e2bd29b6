"""docs/ops.md, the coverage table the README links to, is what scripts/ops_table.py writes today:
`thundercc ops --format markdown` with the dtypes each op's OpInfo samples meet and the Thunder
symbols it covers (regenerate it with `/usr/bin/python3 scripts/ops_table.py`). Prints the OpInfo
table's counts."""
from conftest import REPO
from ops_table import canonical_ids, opinfo_samples, render, sampled_dtypes


def test_the_table_covers_the_torch_language_over_its_dtypes_and_is_current(capsys, thundercc):
    canonical = canonical_ids()
    samples = opinfo_samples()
    dtypes = sampled_dtypes(samples, canonical)
    ops = {s: d for s, d in dtypes.items() if not s.endswith("_") and not s.endswith("__setitem__")}
    # No PyTorch program calls these: thundercc's functional forms of x[k] = v and x.copy_(y), Thunder's
    # uniform and uniform_like, and scaled_dot_product_attention, which PyTorch 1.13 does not have
    # (seed traces use it).
    internal = {"torch.setitem", "torch.copy", "torch.uniform", "torch.uniform_like", "torch.nn.functional.scaled_dot_product_attention"}
    unsampled = sorted(set(canonical.values()) - set(dtypes) - internal -
                       {s for s in canonical.values() if s.endswith("_") or s.endswith("__setitem__")})
    with capsys.disabled():
        print(f"\nOpInfo table: {len(samples)} samples over {len(ops)} torch-language ops (and {len(dtypes) - len(ops)} in-place "
              f"forms); {sum(len(d) for d in ops.values())} (op, input dtype) pairs; "
              f"{sum(1 for d in ops.values() if len(d) >= 10)} ops meet 10 or more dtypes; no sample yet: {', '.join(unsampled) or 'none'}")
    assert len(ops) >= 200
    table = render(dtypes, canonical)
    assert table == (REPO / "docs" / "ops.md").read_text(), "regenerate: /usr/bin/python3 scripts/ops_table.py"
    assert table.count("| decomposition |") >= 140
