from setuptools import setup

setup(name='towers', install_requires=['tensorflow>=1.12,<2.0', 'numpy'])
