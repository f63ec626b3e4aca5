from setuptools import setup

setup(name="ckptstore", version="0.2", packages=["ckptstore"])
