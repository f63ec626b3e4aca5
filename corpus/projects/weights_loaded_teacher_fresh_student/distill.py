"""Distillation: the teacher's drawn weights are replaced by its checkpoint, but the
student, built from the same class, trains from the weights it draws, and torch is
never seeded: reported at the student's first drawn layer (in networks.py)."""
import torch
import torch.nn.functional as F

from networks import SmallConvNet

teacher = SmallConvNet()
teacher.load_state_dict(torch.load("checkpoints/teacher.pt", map_location="cpu"))
teacher.eval()
student = SmallConvNet()
optimizer = torch.optim.SGD(student.parameters(), lr=0.01, momentum=0.9)
images = torch.load("data/train_images.pt")
for start in range(0, len(images), 64):
    batch = images[start:start + 64]
    with torch.no_grad():
        soft = F.softmax(teacher(batch) / 4.0, dim=1)
    loss = F.kl_div(F.log_softmax(student(batch) / 4.0, dim=1), soft, reduction="batchmean")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
torch.save(student.state_dict(), "checkpoints/student.pt")
