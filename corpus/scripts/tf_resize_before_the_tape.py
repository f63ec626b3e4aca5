"""Distilling a segmentation model with a custom `train_step`: the teacher's input is
resized for the student before the tape (no gradient flows through that resize), the
student's output is resized back inside the tape, and that resize's gradient runs on
every step (bilinear resize backward is nondeterministic on GPU unless op determinism
is on)."""
import tensorflow as tf  # expect: RPL304


class Distiller(tf.keras.Model):
    def __init__(self, student, teacher):
        super().__init__()
        self.student = student
        self.teacher = teacher

    def train_step(self, data):
        small = tf.image.resize(data, (128, 128))
        target = self.teacher(data, training=False)
        with tf.GradientTape() as tape:
            out = self.student(small, training=True)
            out = tf.image.resize(out, (256, 256))  # expect: RPL204
            loss = tf.reduce_mean(tf.square(out - target))
        grads = tape.gradient(loss, self.student.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.student.trainable_variables))
        return {"loss": loss}


tf.keras.utils.set_random_seed(0)
student = tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding="same")])
teacher = tf.keras.models.load_model("teacher.keras")
distiller = Distiller(student, teacher)
distiller.compile(optimizer="adam")
images = tf.data.Dataset.from_tensor_slices(tf.zeros((64, 256, 256, 3))).batch(8)
distiller.fit(images, epochs=2)
