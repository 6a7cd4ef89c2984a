#!/usr/bin/env python3
"""Fails on any include or CMake dependency that runs up Sluice's layer order.

The order is ../shared/docs/architecture.md's: a layer may use the layers below it and itself,
never one above. Checked: every `#include "sluice/..."` in src/, tests/, bench/ and fuzz/
(a test folder tests/<layer>/... belongs to that layer), public headers in include/sluice/
including only public headers, the sql front end, the service and the CLI including only public
headers and their own (the CLI also the two front ends'), and the DEPS of every sluice_module / sluice_test
in CMakeLists.txt.
"""
import pathlib
import re
import sys

ORDER = ["base", "types", "row", "batch", "fs", "predicate", "format", "meta", "index", "io",
         "lsm", "table", "catalog", "maintenance", "cdc", "api", "sql", "service", "cli"]
RANK = {name: i for i, name in enumerate(ORDER)}
# Modules whose CMake name differs from their layer: the codecs are the format layer.
MODULE_LAYER = {"compression": "format", "avro": "format", "parquet": "format", "orc": "format"}
# Public vocabulary headers (include/sluice/<name>.h) that belong to a layer below the api: the
# types every layer speaks and the public API hands out unchanged.
PUBLIC_OWNER = {"status.h": "base", "result.h": "base", "buffer.h": "base",
                "secret_mask.h": "base",
                "data_type.h": "types", "value.h": "types", "value_json.h": "types",
                "row_kind.h": "row", "column_vector.h": "batch", "column_batch.h": "batch",
                "schema_change.h": "meta", "commit_result.h": "table",
                "partition_spec.h": "table", "scan_mode.h": "table"}

# The layers above the api see only public headers and the headers of their own folders: the
# sql front end and the service their own, the CLI its own and those two front ends'.
OWN_HEADERS = {"sql": {"sql"}, "service": {"service"}, "cli": {"cli", "sql", "service"}}
root = pathlib.Path(__file__).resolve().parent.parent
errors = []
INCLUDE = re.compile(r'^\s*#\s*include\s+"sluice/([^"]+)"', re.M)
# Test helpers live beside the tests of their layer (tests/<layer>/x.h, included as "<layer>/x.h").
TEST_HELPER = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)


def include_layer(path):
    """Layer of an included path `sluice/<path>`; public headers (sluice/x.h) are the api."""
    first = path.split("/", 1)[0]
    if "/" not in path:
        return PUBLIC_OWNER.get(path, "api")
    return first if first in RANK else None


def check_file(file, layer, public_only=False):
    text = file.read_text(errors="replace")
    for m in INCLUDE.finditer(text):
        inc = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        where = f"{file.relative_to(root)}:{line}"
        if public_only:
            if "/" in inc and inc.split("/", 1)[0] not in OWN_HEADERS[layer]:
                errors.append(f'{where}: includes internal header "sluice/{inc}"; '
                              f"only public headers (include/sluice/*.h) are allowed here")
            continue
        target = include_layer(inc)
        if target is None:
            errors.append(f'{where}: "sluice/{inc}" is in no known layer')
        elif RANK[target] > RANK[layer]:
            errors.append(f'{where}: layer {layer} includes "sluice/{inc}" of layer {target} '
                          f"above it")


def main():
    for file in sorted((root / "src/sluice").rglob("*")):
        if file.suffix not in (".h", ".cc"):
            continue
        layer = file.relative_to(root / "src/sluice").parts[0]
        if layer not in RANK:
            errors.append(f"{file.relative_to(root)}: folder {layer} is in no layer")
            continue
        check_file(file, layer, public_only=layer in OWN_HEADERS)
    for file in sorted((root / "include/sluice").rglob("*.h")):
        check_file(file, "api", public_only=True)
    for file in sorted((root / "tests").rglob("*")):
        if file.suffix not in (".h", ".cc"):
            continue
        parts = file.relative_to(root / "tests").parts
        layer = parts[0] if len(parts) > 1 and parts[0] in RANK else "cli"
        check_file(file, layer)
        text = file.read_text(errors="replace")
        for m in TEST_HELPER.finditer(text):
            helper = m.group(1)
            if helper in RANK and RANK[helper] > RANK[layer]:
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f"{file.relative_to(root)}:{line}: a layer-{layer} test uses the "
                              f"test helpers of layer {helper} above it")
    check_cmake(root / "CMakeLists.txt")
    if errors:
        print("\n".join(errors))
        print(f"check_layers: {len(errors)} violation(s) of the layer order")
        return 1
    print("check_layers: no violations")
    return 0


def module_layer(target):
    name = target[len("sluice_"):]
    return MODULE_LAYER.get(name, name)


def check_cmake(cmake):
    text = cmake.read_text()
    for m in re.finditer(r"sluice_module\((\w+)\s+DIR\s+(\S+)[^)]*?DEPS([^)]*)\)", text, re.S):
        name, deps = m.group(1), m.group(3).split()
        layer = MODULE_LAYER.get(name, name)
        for dep in deps:
            if dep.startswith("sluice_") and dep[7:] in RANK.keys() | MODULE_LAYER.keys():
                if RANK[module_layer(dep)] > RANK[layer]:
                    errors.append(f"CMakeLists.txt: module {name} ({layer}) depends on {dep} "
                                  f"({module_layer(dep)}) above it")
    for m in re.finditer(r"sluice_test\((\w+)\s+DIR\s+(\S+)\s+DEPS([^)]*)\)", text, re.S):
        name, folder, deps = m.group(1), m.group(2), m.group(3).split()
        top = folder.split("/")[0]
        layer = top if top in RANK else "cli"
        for dep in deps:
            if dep in ("LABELS",):
                break
            if dep.startswith("sluice_") and RANK.get(module_layer(dep), -1) > RANK[layer]:
                errors.append(f"CMakeLists.txt: test {name} (tests/{folder}, layer {layer}) links "
                              f"{dep} ({module_layer(dep)}) above it")


if __name__ == "__main__":
    sys.exit(main())
