"""The look-alike: each image is saved under its place in the listing, so which file gets
which number depends on the order the file system lists them in."""
import os

import matplotlib.pyplot as plt

root = "data/img_align_celeba/"
save_root = "data/numbered/"
img_list = os.listdir(root)  # expect: RPL402

for i in range(len(img_list)):
    img = plt.imread(root + img_list[i])
    plt.imsave(fname=save_root + "%06d.png" % i, arr=img)
