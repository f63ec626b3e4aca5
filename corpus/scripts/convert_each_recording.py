"""Speech corpus preparation: each recording in the listing is cut into utterances with
`sox`, each written to files named after the recording and the utterance's place in
its own transcript. Every entry is handled on its own, so the listing's order reaches
no file (no RPL402): the sample rate reaches the command line only as text, and the
transcript is filtered with a helper that looks at one line."""
import argparse
import io
import os
import subprocess
import unicodedata

from tqdm import tqdm

parser = argparse.ArgumentParser()
parser.add_argument("--target-dir", default="corpus/")
parser.add_argument("--sample-rate", type=int, default=16000)
args = parser.parse_args()


def read_transcript(path):
    lines = []
    with io.open(path, "r", encoding="utf-8") as f:
        for line in f:
            tokens = line.split()
            text = unicodedata.normalize("NFKD", " ".join(tokens[6:]).strip()).encode("utf-8").decode("utf-8")
            lines.append({"start": float(tokens[3]), "end": float(tokens[4]), "text": text})
    return lines


def long_enough(utterance):
    return utterance["end"] - utterance["start"] > 1.0


def cut(source, target, start, end, sample_rate=16000):
    subprocess.call(["sox {} -r {} -c 1 {} trim {} ={}".format(source, str(sample_rate), target, start, end)],
                    shell=True)


def main():
    recordings = os.listdir(os.path.join(args.target_dir, "sph"))
    for recording in tqdm(recordings, total=len(recordings)):
        speaker = recording.split(".sph")[0]
        source = os.path.join(args.target_dir, "sph", recording)
        utterances = filter(long_enough, read_transcript(os.path.join(args.target_dir, "stm", speaker + ".stm")))
        for index, utterance in enumerate(utterances):
            target = os.path.join(args.target_dir, "wav", "{}_{}.wav".format(speaker, index))
            cut(source, target, utterance["start"], utterance["end"], sample_rate=args.sample_rate)
            with io.FileIO(target.replace(".wav", ".txt"), "w") as f:
                f.write(utterance["text"].upper().encode("utf-8"))


if __name__ == "__main__":
    main()
