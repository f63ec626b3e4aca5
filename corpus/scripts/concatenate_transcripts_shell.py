"""The look-alike of convert_each_recording.py: each transcript in the listing is
appended to one training text with a command line (`>>`), so the text's lines come in
the file system's order (RPL402), and so do the batches a language model trains on."""
import os
import subprocess

from tqdm import tqdm


def main(folder="transcripts", out="train.txt"):
    names = os.listdir(folder)  # expect: RPL402
    for name in tqdm(names):
        subprocess.call("tr -s ' ' < {} >> {}".format(os.path.join(folder, name), out), shell=True)


if __name__ == "__main__":
    main()
