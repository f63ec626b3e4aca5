from jsonargparse import CLI

from textgen.finetune.lora import setup as finetune_lora
from textgen.generate import main as generate
from textgen.pretrain import setup as pretrain


def main() -> None:
    commands = {
        "pretrain": pretrain,
        "finetune": {"lora": finetune_lora},
        "generate": generate,
    }
    CLI(commands)


if __name__ == "__main__":
    main()
