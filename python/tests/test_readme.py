"""The Python example of the README runs as written."""

import os
import re

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "README.md")


def test_readme_example(tmp_path, monkeypatch, capsys):
    text = open(README).read()
    match = re.search(r"<!-- python-example[^>]*-->\s*```python\n(.*?)```",
                      text, re.S)
    assert match, "README has no marked Python example"
    monkeypatch.chdir(tmp_path)
    exec(compile(match.group(1), "README.md", "exec"), {})
    assert "group_norm(x: bf16[2, 64, shape2, shape3])" in capsys.readouterr().out
    assert os.path.getsize(tmp_path / "out" / "librms_norm.so") > 0
