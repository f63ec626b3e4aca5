from setuptools import setup

setup(name='a3c', install_requires=['tensorflow>=1.12,<2.0', 'numpy'])
