"""What the blind round on unseen code of stop 61 (round s) showed `check` getting wrong,
as mechanisms: a TF 1 initialiser object draws nothing when it is made (the graph seed is
read when a variable's initial value is built with it), so a default argument made at
import comes before no draw; a generator built into a name nothing reads draws nothing
(tests/test_per_entry_outputs.py: listings whose entries become their own files)."""
from __future__ import annotations

from pathlib import Path

from project_files import found, messages, write

TF1 = (
    "import tensorflow as tf\n\n\n"
    "def dense(x, n, w_init=tf.{init}(stddev=0.02)):\n"
    "    w = tf.get_variable('w', [4, n], initializer=w_init)\n"
    "    return tf.matmul(x, w)\n\n\n"
    "def main():\n"
    "{seed}"
    "    x = tf.placeholder(tf.float32, [None, 4])\n"
    "    y = dense(x, 8)\n"
    "    with tf.Session() as sess:\n"
    "        sess.run(tf.global_variables_initializer())\n"
    "        print(sess.run(y, {{x: [[1.0, 2.0, 3.0, 4.0]]}}))\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)


def test_an_initialiser_made_at_import_draws_when_the_variable_is_built_after_the_seed(tmp_path: Path) -> None:
    for init in ("random_normal_initializer", "truncated_normal_initializer"):
        write(tmp_path, {"train.py": TF1.format(init=init, seed="    tf.set_random_seed(42)\n")})
        assert found(tmp_path, "RPL101") == [], init
    contrib = TF1.format(init="random_normal_initializer", seed="    tf.set_random_seed(42)\n").replace(
        "tf.random_normal_initializer(stddev=0.02)", "tf.contrib.layers.xavier_initializer()")
    write(tmp_path, {"train.py": contrib})
    assert found(tmp_path, "RPL101") == []


def test_an_initialiser_of_a_program_that_never_seeds_tensorflow_is_reported(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TF1.format(init="random_normal_initializer", seed="")})
    assert found(tmp_path, "RPL101") == [("train.py", 4)]
    assert "never seeded" in messages(tmp_path, "RPL101")[0]
