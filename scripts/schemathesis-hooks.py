"""Schemathesis hooks for scripts/fuzz-api.sh (loaded through SCHEMATHESIS_HOOKS).

POST …/memories/import takes the export format, newline-delimited JSON, which schemathesis
cannot serialize by itself; its body is documented as a string, sent as the text it is.
"""
import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
