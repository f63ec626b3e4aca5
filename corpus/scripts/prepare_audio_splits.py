# Data prep for the keyword-spotting experiments: split clips, make noisy copies.
# Run once before training: python prepare_audio_splits.py
import json
import os

import numpy as np

DATA_DIR = "data/speech_commands"
OUT_DIR = "data/splits"
VAL_FRACTION = 0.1
NOISE_STD = 0.005

clips = sorted(
    os.path.join(label, name)
    for label in sorted(os.listdir(DATA_DIR))
    if os.path.isdir(os.path.join(DATA_DIR, label))
    for name in sorted(os.listdir(os.path.join(DATA_DIR, label)))
)
print(f"{len(clips)} clips found")

order = np.arange(len(clips))
np.random.shuffle(order)  # expect: RPL101
n_val = int(len(clips) * VAL_FRACTION)
val_idx, train_idx = order[:n_val], order[n_val:]

os.makedirs(OUT_DIR, exist_ok=True)
with open(os.path.join(OUT_DIR, "split.json"), "w") as f:
    json.dump({"train": [clips[i] for i in train_idx], "val": [clips[i] for i in val_idx]}, f)

# Augmented copies: additive noise plus a random gain per clip.
rng = np.random.default_rng()  # expect: RPL102
for i in train_idx[:2000]:
    wave = np.load(os.path.join(DATA_DIR, clips[i].replace(".wav", ".npy")))
    noisy = wave + np.random.randn(*wave.shape) * NOISE_STD  # expect: RPL101
    gain = rng.uniform(0.8, 1.2)
    np.save(os.path.join(OUT_DIR, f"aug_{i:06d}.npy"), (noisy * gain).astype(np.float32))

summary = {"n_train": int(len(train_idx)), "n_val": int(n_val), "noise_std": NOISE_STD}
print(json.dumps(summary, indent=2))
