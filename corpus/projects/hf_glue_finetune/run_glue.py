"""GLUE fine-tuning, trimmed from the transformers example (without its set_seed call)."""
import logging
import sys

import evaluate
import numpy as np
from transformers import (
    AutoConfig,
    AutoModelForSequenceClassification,
    AutoTokenizer,
    HfArgumentParser,
    Trainer,
    TrainingArguments,
    default_data_collator,
)

from arguments import DataArguments, ModelArguments
from data_utils import load_glue

logger = logging.getLogger(__name__)


def main():
    parser = HfArgumentParser((ModelArguments, DataArguments, TrainingArguments))  # expect: RPL306
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()
    logging.basicConfig(stream=sys.stdout, level=logging.INFO)

    num_labels = 1 if data_args.task_name == "stsb" else 2
    config = AutoConfig.from_pretrained(model_args.model_name_or_path, num_labels=num_labels)
    tokenizer = AutoTokenizer.from_pretrained(model_args.model_name_or_path, cache_dir=model_args.cache_dir)
    model = AutoModelForSequenceClassification.from_pretrained(  # expect: RPL101
        model_args.model_name_or_path,
        config=config,
        cache_dir=model_args.cache_dir,
    )
    train_dataset, eval_dataset = load_glue(
        data_args.task_name, tokenizer, data_args.max_seq_length, data_args.max_train_samples
    )
    metric = evaluate.load("glue", data_args.task_name)

    def compute_metrics(p):
        preds = np.argmax(p.predictions, axis=1)
        return metric.compute(predictions=preds, references=p.label_ids)

    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train_dataset,
        eval_dataset=eval_dataset,
        compute_metrics=compute_metrics,
        tokenizer=tokenizer,
        data_collator=default_data_collator,
    )
    if training_args.do_train:
        result = trainer.train()
        trainer.save_model()
        trainer.log_metrics("train", result.metrics)
    if training_args.do_eval:
        trainer.log_metrics("eval", trainer.evaluate())


if __name__ == "__main__":
    main()
