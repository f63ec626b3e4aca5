"""Build an audio dataset index: os.walk sorted properly, but the noise clips come unsorted."""
import json
import os
from pathlib import Path

index = []
for root, dirs, files in os.walk("audio"):
    dirs.sort()
    for name in sorted(files):
        if name.endswith(".wav"):
            index.append(os.path.join(root, name))

noise = list(Path("noise").rglob("*.wav"))  # expect: RPL402
pairs = [{"clean": clean, "noise": str(noise[i % len(noise)])} for i, clean in enumerate(index)]
with open("index.json", "w") as f:
    json.dump(pairs, f)
