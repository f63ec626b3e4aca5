"""Look-alike of subcommand_dispatch: the subcommands are registered with
`set_defaults(func=...)` but the program only prints the parsed options; no dispatch
runs `pretrain`, so there is no training program."""
import argparse

from commands import export, pretrain


def main():
    parser = argparse.ArgumentParser(prog="tool")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("pretrain").set_defaults(func=pretrain)
    sub.add_parser("export").set_defaults(func=export)
    print(parser.parse_args())


if __name__ == "__main__":
    main()
