from setuptools import setup

setup(name='policy', install_requires=['tensorflow>=1.12,<2.0', 'numpy'])
