"""tf_flowers classifier (after the Keras image-classification tutorial), seeded first."""
import argparse

import tensorflow as tf

from common import seed_everything
from data import jitter_brightness, make_datasets
from models import build_model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data/flower_photos")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--seed", type=int, default=123)
    args = ap.parse_args()

    seed_everything(args.seed)
    train_ds, val_ds, class_names = make_datasets(args.data, args.batch_size, args.seed)
    train_ds = jitter_brightness(train_ds)
    model = build_model(len(class_names))
    model.compile(
        optimizer="adam",
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    model.fit(train_ds, validation_data=val_ds, epochs=args.epochs, shuffle=True)
    model.save("flowers.keras")


if __name__ == "__main__":
    main()
