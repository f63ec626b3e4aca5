"""Batch generation with a fine-tuned model whose options are parsed into
`Seq2SeqTrainingArguments` (for `output_dir`, `per_device_eval_batch_size`): the program
loads a checkpoint and generates under `no_grad`, it trains nothing, so the arguments'
`full_determinism` decides nothing (look-alike: hf_finetune_parsed_args.py)."""
import json
from dataclasses import dataclass, field

import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, HfArgumentParser, Seq2SeqTrainingArguments


@dataclass
class DataArguments:
    model_path: str = field(default="out/checkpoint-1000")
    prompts: str = field(default="prompts.jsonl")


def main():
    data_args, training_args = HfArgumentParser((DataArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
    tokenizer = AutoTokenizer.from_pretrained(data_args.model_path)
    model = AutoModelForSeq2SeqLM.from_pretrained(data_args.model_path).to("cuda").eval()
    prompts = [json.loads(line)["prompt"] for line in open(data_args.prompts)]
    with torch.no_grad():
        for start in range(0, len(prompts), training_args.per_device_eval_batch_size):
            batch = tokenizer(prompts[start:start + training_args.per_device_eval_batch_size], return_tensors="pt", padding=True)
            out = model.generate(**batch.to("cuda"), max_new_tokens=64, do_sample=False)
            print(tokenizer.batch_decode(out, skip_special_tokens=True))


if __name__ == "__main__":
    main()
