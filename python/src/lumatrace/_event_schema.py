"""The JSON Schema of an event line, from the shape its analyzer declares for its kind.

    event_schema("differencing", "diff", "blobs")   # a dict: a JSON Schema (draft 2020-12)

An event log's header declares, for each analyzer instance and event kind, the *shape* of the
events' `data` (the Swift `EventShape`): the fields the stock commands read and their types. The
schema says exactly that and no more: the shape's fields are required with their types, any other
field is the analyzer's own and allowed, and a kind without a shape (free JSON) has any `data`.
Viewers read the schema to offer an event's numbers for plotting (Foxglove's Plot panel).
"""
from __future__ import annotations

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_NUMBER = {"type": "number"}
_STRING = {"type": "string"}
_POINT = {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2,
          "description": "[x, y], normalized to the frame, origin at the lower-left corner"}
_RECT = {"type": "array", "items": _NUMBER, "minItems": 4, "maxItems": 4,
         "description": "[x, y, width, height], normalized, (x, y) the lower-left corner"}
_CONFIDENCE = {"type": "number", "description": "0...1"}
_TIME_FIT = {"type": "object", "required": ["x", "y"],
             "description": "the path in time: x(t), y(t) as polynomial coefficients from the constant term up, "
                            "t in seconds from the first point",
             "properties": {"x": {"type": "array", "items": _NUMBER}, "y": {"type": "array", "items": _NUMBER}}}

#: The fields of each shape's `data`: (required properties, optional properties).
_SHAPE_FIELDS = {
    "pathEnd": ({"id": _STRING, "confidence": _CONFIDENCE,
                 "points": {"type": "array", "description": "[[frame, x, y, radius?], ...]",
                            "items": {"type": "array", "items": _NUMBER, "minItems": 3, "maxItems": 4}}},
                {"reason": _STRING, "timeFit": _TIME_FIT}),
    "pathUpdate": ({"id": _STRING, "confidence": _CONFIDENCE},
                   {"detectedPoints": {"type": "array", "items": _POINT},
                    "projectedPoints": {"type": "array", "items": _POINT},
                    "timeFit": _TIME_FIT,
                    "timeRange": {"type": "object", "properties": {"start": _NUMBER, "duration": _NUMBER}},
                    "movingAverageRadius": {"type": "number", "description": "a fraction of the frame's width"}}),
    "box": ({"id": _STRING, "boundingBox": _RECT, "confidence": _CONFIDENCE}, {"label": _STRING}),
    "boxLost": ({"id": _STRING}, {}),
    "boxRecovered": ({"id": _STRING, "boundingBox": _RECT, "confidence": _CONFIDENCE}, {"label": _STRING}),
    "quadrilateral": ({"topLeft": _POINT, "topRight": _POINT, "bottomRight": _POINT, "bottomLeft": _POINT},
                      {"confidence": _CONFIDENCE, "id": _STRING}),
    "blobs": ({"changedFraction": {"type": "number", "description": "the fraction of the frame that changed"},
               "blobs": {"type": "array", "items": {"type": "object", "required": ["boundingBox"],
                                                    "properties": {"boundingBox": _RECT}}}},
              {}),
}

#: The number of each shape a viewer plots first: the one that says how much or how sure.
MAIN_NUMBER = {"blobs": "changedFraction", "pathUpdate": "confidence", "pathEnd": "confidence",
               "box": "confidence", "boxRecovered": "confidence", "quadrilateral": "confidence"}


def data_schema(shape: str | None) -> dict:
    """The schema of an event's `data` for a declared `shape` (None: free JSON, anything)."""
    if shape not in _SHAPE_FIELDS:
        return {"description": "free JSON: the analyzer declares no shape for this kind"}
    required, optional = _SHAPE_FIELDS[shape]
    return {"type": "object", "description": f"shape {shape}", "required": list(required),
            "properties": {**required, **optional}}


def event_schema(analyzer: str, kind: str, shape: str | None) -> dict:
    """The schema of one event line of `analyzer`'s `kind`: `frame`, `t` (seconds), `analyzer`,
    `kind` and `data`, as the log holds it."""
    return {
        "$schema": DIALECT,
        "title": f"lumatrace {analyzer} {kind}",
        "type": "object",
        "required": ["frame", "t", "analyzer", "kind", "data"],
        "properties": {
            "frame": {"type": "integer", "minimum": 0, "description": "the frame's index in the recording"},
            "t": {"type": "number", "description": "the frame's time, seconds from the recording's start"},
            "analyzer": {"const": analyzer},
            "kind": {"const": kind},
            "data": data_schema(shape),
        },
    }
