#!/usr/bin/env python3
"""Reduce the platform's published OpenAPI description to what the contract
tests validate against: operations (method, path, parameters, request and
response schemas) and the component schemas with their types and enums.
Descriptions, titles and examples are dropped; nothing else is changed.

    python3 tests/data/reduce_openapi.py ../shared/spec/platform-openapi.json \
        > tests/data/platform-schemas.json
"""
import json
import sys

DROP = {"description", "title", "example", "examples", "summary", "externalDocs"}


def strip(node):
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k not in DROP or not isinstance(v, str)}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def main(path):
    spec = json.load(open(path))
    paths = {}
    for route, ops in spec["paths"].items():
        for method, op in ops.items():
            kept = {k: op[k] for k in ("operationId", "parameters", "requestBody") if k in op}
            kept["responses"] = {"200": op["responses"]["200"]}
            paths.setdefault(route, {})[method] = strip(kept)
    out = {
        "openapi": spec["openapi"],
        "info": {"title": spec["info"]["title"], "version": spec["info"]["version"]},
        "paths": paths,
        "components": {"schemas": strip(spec["components"]["schemas"])},
    }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


main(sys.argv[1])
