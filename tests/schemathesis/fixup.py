"""The published contract with its own quirks corrected for a tester:
only 200 documented (400, 401, 403, 404, 409 and 429 added, in the error
shape), string enums on array fields (dropped from the array, kept on its
items), null allowed for every field (protobuf JSON reads it as "not set"),
deploymentId fixed to the demo's.

Usage: python3 tests/schemathesis/fixup.py PUBLISHED.json OUT.json
"""
import json, sys
d = json.load(open(sys.argv[1]))
err = {"description": "error", "content": {"application/json": {"schema": {
    "type": "object", "properties": {"error": {"type": "string"}, "code": {}}}}}}
def fix(node):
    if isinstance(node, dict):
        if node.get("type") == "array" and "enum" in node:
            node.pop("enum")
        for v in node.values():
            fix(v)
    elif isinstance(node, list):
        for v in node:
            fix(v)
fix(d)
# Protobuf JSON reads `null` as "not set" for any field: say so.
def nullable(node):
    if isinstance(node, dict):
        for prop in (node.get("properties") or {}).values():
            if isinstance(prop, dict):
                prop["nullable"] = True
                if "enum" in prop and None not in prop["enum"]:
                    prop["enum"].append(None)
        for v in node.values():
            nullable(v)
    elif isinstance(node, list):
        for v in node:
            nullable(v)
nullable(d)
for path, item in d["paths"].items():
    for method, op in item.items():
        if not isinstance(op, dict) or "responses" not in op:
            continue
        for code in ("400", "401", "403", "404", "409", "429"):
            op["responses"].setdefault(code, err)
        for p in op.get("parameters", []):
            if p.get("name") == "deploymentId":
                p["schema"] = {"type": "string", "enum": ["1234"]}
json.dump(d, open(sys.argv[2], "w"), indent=1)
