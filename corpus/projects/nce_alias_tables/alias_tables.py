import torch


class AliasSampler:
    def __init__(self, probs):
        k = len(probs)
        self.prob = torch.zeros(k)
        self.alias = torch.LongTensor([0] * k)
        for i, p in enumerate(probs):
            self.prob[i] = k * p
        small = [i for i in range(k) if self.prob[i] < 1.0]
        large = [i for i in range(k) if self.prob[i] >= 1.0]
        while small and large:
            s, g = small.pop(), large.pop()
            self.alias[s] = g
            self.prob[g] = self.prob[g] + self.prob[s] - 1.0
            (small if self.prob[g] < 1.0 else large).append(g)

    def cuda(self):
        self.prob = self.prob.cuda()
        self.alias = self.alias.cuda()
        return self

    def draw(self, n):
        kk = torch.zeros(n, dtype=torch.long, device=self.prob.device).random_(0, self.alias.size(0))
        prob = self.prob.index_select(0, kk)
        alias = self.alias.index_select(0, kk)
        keep = torch.bernoulli(prob).long()
        return kk * keep + alias * (1 - keep)
