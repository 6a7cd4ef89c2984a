"""Code written for pypaimon runs against Sluice by changing its import, and gives the same
results (pypaimon_style.py: create, upsert, overwrite, filters, projection, limit, time travel,
tags, pandas)."""

import contextlib
import io
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).with_name("pypaimon_style.py")


def test_pypaimon_code_runs_on_sluice_with_the_same_results(pypaimon, tmp_path):
    theirs = subprocess.run([pypaimon.python, str(SCRIPT), str(tmp_path / "theirs")],
                            capture_output=True, text=True, timeout=300)
    assert theirs.returncode == 0, theirs.stderr

    code = SCRIPT.read_text()
    assert code.count("from pypaimon import") == 1
    code = code.replace("from pypaimon import", "from sluice import")
    out = io.StringIO()
    argv = sys.argv
    sys.argv = [str(SCRIPT), str(tmp_path / "ours")]
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(SCRIPT), "exec"), {"__name__": "__main__"})
    finally:
        sys.argv = argv

    ours = json.loads(out.getvalue())
    assert ours == json.loads(theirs.stdout)
    assert len(ours["all"]) == 11 and ours["pandas_rows"] == 11
    assert ours["snapshot_1"] != ours["tag_v2"] and len(ours["in_or"]) > 0
