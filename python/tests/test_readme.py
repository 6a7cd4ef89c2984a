"""The README's Python example, run as it is written: its `# -> ` lines are what it prints."""

import contextlib
import io
import re
import textwrap

from conftest import REPO


def readme_example():
    readme = (REPO / "README.md").read_text()
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"\n\n((?:    .*\n|\n)+)", section).group(1)
    return textwrap.dedent(block)


def test_readme_python_example_runs_and_prints_what_it_says():
    code = readme_example()
    assert "CatalogFactory.create" in code and "read_table" in code
    expected = [line.split("# -> ", 1)[1] for line in code.splitlines() if "# -> " in line]
    assert len(expected) == 2
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    assert out.getvalue().splitlines() == expected
