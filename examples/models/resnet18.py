"""torchvision's resnet18 (random weights), in inference: the quick start of README.md."""
import torch
import torchvision


def make():
    torch.manual_seed(0)
    return torchvision.models.resnet18().eval(), (torch.randn(1, 3, 224, 224),)
