import argparse
import importlib
import os

MODEL_REGISTRY = {}


def register_model(model_name):
    def wrap(cls):
        MODEL_REGISTRY[model_name] = cls
        return cls
    return wrap


def build_model(args):
    return MODEL_REGISTRY[args.arch](args)


# import every module of this folder: each registers its models under their own names
for file in os.listdir(os.path.dirname(__file__)):
    if file.endswith(".py") and not file.startswith("_"):
        model_name = file[: file.find(".py")]
        module = importlib.import_module("models." + model_name)
        if model_name in MODEL_REGISTRY:
            parser = argparse.ArgumentParser(add_help=False)
            MODEL_REGISTRY[model_name].add_args(parser)
            globals()[model_name + "_parser"] = parser
