import tensorflow as tf

AUTOTUNE = tf.data.AUTOTUNE
IMG_SIZE = (180, 180)


def make_datasets(directory, batch_size, seed):
    train = tf.keras.utils.image_dataset_from_directory(
        directory, validation_split=0.2, subset="training", seed=seed, image_size=IMG_SIZE, batch_size=None
    )
    val = tf.keras.utils.image_dataset_from_directory(
        directory, validation_split=0.2, subset="validation", seed=seed, image_size=IMG_SIZE, batch_size=None
    )
    class_names = train.class_names
    train = train.shuffle(1000, seed=seed).batch(batch_size).cache().prefetch(AUTOTUNE)
    val = val.batch(batch_size).prefetch(AUTOTUNE)
    return train, val, class_names


def jitter_brightness(ds):
    return ds.map(lambda x, y: (tf.image.random_brightness(x, 0.2, seed=11), y))
