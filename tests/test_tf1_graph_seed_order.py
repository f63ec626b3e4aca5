"""TF1 graph-mode draws take the graph's seed when their op is built (not when a session
runs them): a queue built after `tf.set_random_seed` in its graph is seeded, one built
before it is drawn unseeded, and the message says the seed came late."""

from __future__ import annotations

from reprolint.api import check_source

QUEUE = 'queue = tf.train.string_input_producer(["a", "b", "c"], shuffle=True)'


def _program(first: str, second: str) -> str:
    return (
        "import tensorflow as tf\n\n\n"
        "def main():\n"
        "    with tf.Graph().as_default():\n"
        f"        {first}\n"
        f"        {second}\n"
        "        with tf.Session() as sess:\n"
        "            print(sess.run(queue.dequeue()))\n\n\n"
        'if __name__ == "__main__":\n'
        "    main()\n"
    )


def test_a_queue_built_after_the_graph_seed_is_seeded() -> None:
    findings = check_source(_program("tf.set_random_seed(666)", QUEUE), path="train.py")
    assert [f.code for f in findings] == []


def test_a_queue_built_before_the_graph_seed_is_reported_with_the_late_seed() -> None:
    [finding] = check_source(_program(QUEUE, "tf.set_random_seed(666)"), path="train.py")
    assert finding.code == "RPL101"
    assert (finding.span.start_line, finding.span.start_col) == (6, 17)
    assert finding.message == (
        "`tf.train.string_input_producer(...)` shuffles with TensorFlow's global RNG before "
        "`tf.set_random_seed` runs (train.py:7; entry point: train.py)"
    )


def test_a_message_never_says_a_library_is_seeded_and_not_seeded() -> None:
    for first, second in ((QUEUE, "tf.set_random_seed(666)"), ("tf.set_random_seed(666)", QUEUE)):
        for finding in check_source(_program(first, second), path="train.py"):
            assert "seeds TensorFlow" not in finding.message or "not TensorFlow" not in finding.message
