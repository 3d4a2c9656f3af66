"""A Foxglove layout for an exported MCAP file: what to look at, already arranged.

    write_layout("clip.layout.json", streams, analyzers)

Import it in Foxglove (Layouts > Import from file). Three panels:

- an Image panel on `/camera/image` with every analyzer's `/lumatrace/ANALYZER/annotations`
  ticked (untick one to hide what that analyzer drew);
- a Plot of each event stream's main number (`_event_schema.MAIN_NUMBER`: a differencing's
  `changedFraction`, a trajectory's or a track's `confidence`) over time;
- Raw Messages on the first event stream (pick another topic in the panel: every event is there).

The file is JSON in the layout format Foxglove exports (`configById`, `layout`, ...), written in a
fixed order, so the same export gives the same bytes.
"""
from __future__ import annotations

import json
import re

from ._event_schema import MAIN_NUMBER

#: The output kind of a layout file (`_output.OutputFile`).
LAYOUT_KIND = "foxglove layout"

IMAGE_PANEL = "Image!lumatrace"
PLOT_PANEL = "Plot!lumatrace"
RAW_MESSAGES_PANEL = "RawMessages!lumatrace"


def message_path(topic: str, *fields: str) -> str:
    """A Foxglove message path: `topic.field.field`, the topic in double quotes when it holds a
    character outside `[A-Za-z0-9_/-]` (a kind such as `trajectory.end`), as Foxglove's own
    `quoteTopicNameIfNeeded` quotes it, and so each field outside `[A-Za-z0-9_-]`."""
    def quoted(name: str, allowed: str) -> str:
        if name and re.fullmatch(allowed, name):
            return name
        return '"' + re.sub(r'([\\"])', r"\\\1", name) + '"'
    return ".".join([quoted(topic, r"[A-Za-z0-9_/-]+")] + [quoted(f, r"[A-Za-z0-9_-]+") for f in fields])


def layout(streams: list, analyzers: list, image_topic: str = "/camera/image") -> dict:
    """The layout of an export with these event streams (`EventStream`s) and analyzers drawing
    annotations, as JSON."""
    from .foxglove import annotations_topic, events_topic
    series = [{"value": message_path(events_topic(s), "data", MAIN_NUMBER[s.shape]), "enabled": True,
               "timestampMethod": "receiveTime", "label": f"{s.analyzer} {s.kind} {MAIN_NUMBER[s.shape]}"}
              for s in streams if s.shape in MAIN_NUMBER]
    return {
        "configById": {
            IMAGE_PANEL: {
                "imageMode": {"imageTopic": image_topic,
                              "annotations": {annotations_topic(a): {"visible": True} for a in analyzers}},
                "cameraState": {}, "followMode": "follow-pose", "scene": {}, "transforms": {}, "topics": {},
                "layers": {}, "publish": {}},
            PLOT_PANEL: {"paths": series, "showLegend": True, "legendDisplay": "floating",
                         "showXAxisLabels": True, "showYAxisLabels": True, "isSynced": True, "xAxisVal": "timestamp"},
            RAW_MESSAGES_PANEL: {"topicPath": events_topic(streams[0]) if streams else "", "diffEnabled": False,
                                 "diffMethod": "custom", "diffTopicPath": "", "showFullMessageForDiff": False,
                                 "expansion": "all"},
        },
        "globalVariables": {},
        "userNodes": {},
        "playbackConfig": {"speed": 1},
        "layout": {"direction": "row", "first": IMAGE_PANEL, "splitPercentage": 60,
                   "second": {"direction": "column", "first": PLOT_PANEL, "second": RAW_MESSAGES_PANEL,
                              "splitPercentage": 50}},
    }


def write_layout(path: str, streams: list, analyzers: list) -> None:
    """Writes `layout(streams, analyzers)` to `path` (a file the caller has claimed)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(layout(streams, analyzers), indent=2, ensure_ascii=False) + "\n")
