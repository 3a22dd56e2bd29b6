"""Replaces docs/performance.md's generated figures (between the two `scripts/bench.sh --write`
markers) with the contents of a file, leaving the rest of the page as it is."""
import os
import sys

BEGIN, END = "<!-- scripts/bench.sh --write: begin -->", "<!-- scripts/bench.sh --write: end -->"
readme_path = os.path.join(os.path.dirname(__file__), "..", "docs", "performance.md")
readme = open(readme_path).read()
if readme.count(BEGIN) != 1 or readme.count(END) != 1 or readme.index(BEGIN) > readme.index(END):
    sys.exit(f"splice_readme: docs/performance.md needs the line {BEGIN} once, then {END} once; left as it is")
start, stop = readme.index(BEGIN) + len(BEGIN), readme.index(END)
figures = open(sys.argv[1]).read()
with open(readme_path + ".tmp", "w") as out:
    out.write(readme[:start] + "\n" + figures + readme[stop:])
os.replace(readme_path + ".tmp", readme_path)
