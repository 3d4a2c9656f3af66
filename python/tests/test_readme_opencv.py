"""The README's OpenCV example runs as printed and draws what it says: every path the log found, in
pixels, on a frame of the recording, which itself stays as it was."""
import re

import numpy as np
import pytest

from conftest import RECORDINGS, REPO

README = REPO / "python" / "README.md"


def opencv_example() -> str:
    """The README's Python block that uses OpenCV."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    found = [b for b in blocks if "import cv2" in b]
    assert len(found) == 1, "python/README.md shows one example with OpenCV"
    return found[0]


def test_the_readme_draws_a_logs_paths_on_a_frame_with_opencv(tmp_path, monkeypatch):
    code = opencv_example()  # checked before OpenCV is needed: the README holds it whether or not it is installed
    cv2 = pytest.importorskip("cv2", reason="needs OpenCV: .venv/bin/pip install opencv-python-headless")
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(code.replace('"Recordings/', f'"{RECORDINGS}/'), str(README), "exec"), scope)
    rec, points, frame = scope["rec"], scope["points"], scope["frame"]
    written = cv2.imread("paths.png", cv2.IMREAD_GRAYSCALE)
    assert written is not None and np.array_equal(written, frame), "paths.png holds the frame drawn on"
    assert points["id"].nunique() == 11, "every path balls-synth's log ends"
    for _, path in points.groupby("id"):
        x, y = path.x * rec.width, (1 - path.y) * rec.height  # normalized, lower-left origin, in pixels
        inside = (x < rec.width - 1) & (y > 0) & (y < rec.height - 1)
        assert inside.any() and (frame[y[inside].round().astype(int), x[inside].round().astype(int)] == 255).all(), \
            "each path point is on the line drawn"
    assert not np.array_equal(rec[-1], frame), "the reader's own frame is unchanged: the drawing is on a copy"
