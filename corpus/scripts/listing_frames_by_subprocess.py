"""Turns every clip under a folder into frames with an external tool, one process per
clip, each writing into a folder named after its clip (order-free: a clip's frames do
not depend on which clip came before; `check=True` and `shell=False` are values, not
state carried between clips). The look-alike numbers the archives it writes by a
counter kept across the loop, so which archive gets which number follows the listing's
order."""
import os
import subprocess
import sys


def extract_frames(src_root, dst_root, fps):
    converted = 0
    for folder, _, names in os.walk(src_root):
        out_folder = os.path.join(dst_root, os.path.relpath(folder, src_root))
        os.makedirs(out_folder, exist_ok=True)
        for name in names:
            if not name.endswith((".mp4", ".avi")):
                continue
            stem = os.path.splitext(name)[0]
            pattern = os.path.join(out_folder, stem + "_%05d.png")
            command = ["ffmpeg", "-i", os.path.join(folder, name), "-r", str(fps), pattern]
            subprocess.run(command, check=True, shell=False)
            converted += 1
    print("converted", converted, "clips")


def pack_shards(frame_root, shard_root):
    index = 0
    for name in os.listdir(frame_root):  # expect: RPL402
        target = os.path.join(shard_root, f"shard_{index:04d}.tar")
        subprocess.run(["tar", "-cf", target, os.path.join(frame_root, name)], check=True)
        index += 1


if __name__ == "__main__":
    extract_frames(sys.argv[1], sys.argv[2], fps=4)
    pack_shards(sys.argv[2], sys.argv[3])
