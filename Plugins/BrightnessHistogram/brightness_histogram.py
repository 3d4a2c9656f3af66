#!/usr/bin/env python3
"""Brightness histogram: an analyzer plugin in Python, run by Lumatrace's `external` analyzer.

    lumatrace replay clip.luma --analyzer external \
      --set external.command=".venv/bin/python Plugins/BrightnessHistogram/brightness_histogram.py" \
      --set external.options='{"every":10,"bins":16}'

Every `every` analyzed frames it emits a `brightness` event for the region of interest: the mean
and standard deviation of the luma, and the share of pixels in each of `bins` equal brightness
ranges. Lighting changes, clouds, a camera that switched its exposure: all show up here.

`lumatrace.analyzer` speaks the protocol (Plugins/External/ExternalProtocol.swift); this file is
only the analysis. Run it with a Python that has the lumatrace package (python/ in the checkout):
the checkout's `.venv/bin/python`, which `scripts/install-dependencies --for-tests` makes.
"""
try:
    from lumatrace.analyzer import Analyzer, Event, run
except ImportError as e:  # a Python without the package: say which one to use
    import sys
    sys.exit(f"brightness_histogram.py needs the lumatrace Python package ({e}): run it with the .venv/bin/python "
             f"of a Lumatrace checkout (scripts/install-dependencies --for-tests makes it), not {sys.executable}")
import numpy as np


class BrightnessHistogram(Analyzer):
    events = {"brightness": None}

    def configure(self, options, stream):
        self.every = options.get("every", 10)
        self.bins = options.get("bins", 16)
        if not (isinstance(self.every, int) and self.every >= 1) or not (isinstance(self.bins, int) and 1 <= self.bins <= 256):
            raise ValueError(f"options: every must be an integer >= 1 and bins 1...256 (got every={self.every!r}, bins={self.bins!r})")
        self.analyzed = 0

    def analyze(self, frame):
        due = self.analyzed % self.every == 0
        self.analyzed += 1
        if not due:
            return None
        region = frame.region
        # Bin b holds the levels b·256/bins ..< (b+1)·256/bins.
        counts = np.bincount(((region.astype(np.uint32) * self.bins) >> 8).ravel(), minlength=self.bins)
        return Event("brightness", {"mean": region.mean(), "std": region.std(), "histogram": counts / region.size})


if __name__ == "__main__":
    run(BrightnessHistogram)
