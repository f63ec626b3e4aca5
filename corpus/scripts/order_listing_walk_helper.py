"""Video inference helpers: a function that collects every video under a folder and
returns the list as it built it (its callers decide the order) or sorts it first, next
to look-alikes that shuffle or cut the collected list before handing it on."""
import os
import random
import sys

VIDEO_EXTENSIONS = (".mp4", ".avi", ".mov", ".mkv")


def get_video_paths(video_dir):
    video_paths = []
    for root, _, files in os.walk(video_dir):
        for name in files:
            if name.lower().endswith(VIDEO_EXTENSIONS):
                video_paths.append(os.path.join(root, name))
    return video_paths


def sample_clips(video_dir, k):
    clips = []
    for root, _, files in os.walk(video_dir):  # expect: RPL402
        for name in files:
            clips.append(os.path.join(root, name))
    random.shuffle(clips)
    return clips


def first_clips(video_dir, k):
    clips = []
    for name in os.listdir(video_dir):  # expect: RPL402
        clips.append(os.path.join(video_dir, name))
    del clips[k:]
    return clips


def sorted_clips(video_dir, k):
    clips = []
    for name in os.listdir(video_dir):
        clips.append(os.path.join(video_dir, name))
    return sorted(clips)[:k]


if __name__ == "__main__":
    random.seed(0)
    print(sorted(get_video_paths(sys.argv[1])), sample_clips(sys.argv[1], 4), first_clips(sys.argv[1], 2))
    print(sorted_clips(sys.argv[1], 3))
