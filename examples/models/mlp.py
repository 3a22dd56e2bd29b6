"""A two-layer MLP classifier with a cross-entropy loss."""
import torch
import torch.nn.functional as F
from torch import nn


class MLPClassifier(nn.Module):
    def __init__(self, features=32, hidden=64, classes=10):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x, labels):
        h = F.relu(self.fc1(x))
        logits = self.fc2(h)
        return F.cross_entropy(logits, labels)


def make():
    torch.manual_seed(0)
    return MLPClassifier(), (torch.randn(16, 32), torch.randint(0, 10, (16,)))
