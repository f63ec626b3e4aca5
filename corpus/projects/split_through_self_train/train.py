"""Look-alike of split_through_self_eval: training takes the "TRAIN" split, so the random
crops run in the loader's workers, where torch (never seeded) reseeds `random`: one cause
with the model's weights, reported there."""
import torch

from datasets import Images

if __name__ == "__main__":
    model = torch.nn.Linear(96, 2)  # expect: RPL101
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(Images(["a.png", "b.png"], split="TRAIN"), batch_size=1, num_workers=2)
    for img in loader:
        loss = model(img).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
