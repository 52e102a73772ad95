"""Writes every `// -----`-separated chunk of the .mlir files under a tree
into a libFuzzer corpus directory, one file per chunk (named by its hash),
as seeds for the spec fuzzer."""

import hashlib
import pathlib
import sys

tree, corpus = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
corpus.mkdir(parents=True, exist_ok=True)
count = 0
for path in sorted(tree.rglob("*.mlir")):
    for chunk in path.read_text(errors="replace").split("// -----"):
        data = chunk.strip().encode()
        if not data or len(data) > 16384 or b"norm." not in data:
            continue
        (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
print("seed_specs: %d specs from %s" % (count, tree))
