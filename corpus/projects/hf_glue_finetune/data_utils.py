import logging
import random

from datasets import load_dataset

logger = logging.getLogger(__name__)

TASK_TO_KEYS = {
    "cola": ("sentence", None),
    "mrpc": ("sentence1", "sentence2"),
    "qnli": ("question", "sentence"),
    "rte": ("sentence1", "sentence2"),
    "sst2": ("sentence", None),
}


def load_glue(task_name, tokenizer, max_seq_length, max_train_samples=None):
    raw = load_dataset("glue", task_name)
    key1, key2 = TASK_TO_KEYS[task_name]

    def preprocess(examples):
        texts = (examples[key1],) if key2 is None else (examples[key1], examples[key2])
        return tokenizer(*texts, padding="max_length", max_length=max_seq_length, truncation=True)

    processed = raw.map(preprocess, batched=True, desc="Running tokenizer on dataset")
    train = processed["train"]
    if max_train_samples is not None:
        train = train.select(range(min(max_train_samples, len(train))))
    for index in random.sample(range(len(train)), 3):  # expect: RPL101
        logger.info("Sample %d of the training set: %s.", index, train[index])
    return train, processed["validation"]
