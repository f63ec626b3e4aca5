"""CelebA preprocessing: each listed image is resized and saved under its own name; the
index only picks the entry and counts progress."""
import os

import matplotlib.pyplot as plt
from skimage.transform import resize

root = "data/img_align_celeba/"
save_root = "data/resized_celebA/celebA/"
resize_size = 64
img_list = os.listdir(root)

for i in range(len(img_list)):
    img = plt.imread(root + img_list[i])
    img = resize(img, (resize_size, resize_size))
    plt.imsave(fname=save_root + img_list[i], arr=img)
    if (i % 1000) == 0:
        print("%d images complete" % i)
