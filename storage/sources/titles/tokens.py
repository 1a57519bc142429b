"""Tokens of an abstract and how much each looks like a coined name (``ParaSolver``, ``kNN``).

Also the field vocabulary that papers use but do not introduce (``LLMs``, ``GPT-4``, ``ImageNet``).
"""

from __future__ import annotations

import functools
import re


def word_set(text: str) -> frozenset[str]:
    """A word list written as one string."""
    return frozenset(text.split())


# A token: letters/digits joined by inner hyphens, dots or apostrophes, maybe ending in "+"s.
RE_TOKEN = re.compile(r"(?<![\w\-+])[^\W_](?:[\w+]|[-.'’](?=[^\W_]))*")
RE_PLURAL_ACRONYM = re.compile(r"^[A-Z][A-Z0-9\-]*[A-Z]s$")
_RE_ROMAN = re.compile(r"^[IVX]+$")
_RE_NUMBERISH = re.compile(r"^[\d.,\-]+[A-Za-z]{0,2}$")
_ADJECTIVE_SUFFIXES = (
    "-based",
    "-like",
    "-driven",
    "-aware",
    "-free",
    "-level",
    "-wise",
    "-style",
    "-specific",
    "-guided",
    "-agnostic",
    "-scale",
    "-tuned",
    "-tuning",
    "-augmented",
    "-enhanced",
    "-generated",
    "-powered",
    "-conditioned",
    "-centric",
    "-only",
    "-dependent",
    "-independent",
    "-invariant",
    "-equivariant",
    "-efficient",
    "-friendly",
    "-related",
    "-oriented",
    "-constrained",
    "-supervised",
    "-trained",
    "-as-a-judge",
)

# Ubiquitous field vocabulary that papers use but do not introduce. This is general ML
# background knowledge (model families, standard datasets, field acronyms), not a list taken from
# particular papers; a repository match still overrides it.
_COMMON_TERMS = frozenset(
    t.casefold()
    for t in word_set(
        "AI AGI ML DL RL NLP CV LLM LM VLM MLLM LVLM VLA LRM SLM PLM GPT ChatGPT GPT-2 GPT-3 "
        "GPT-3.5 GPT-4 GPT-4o GPT-4V GPT-4-Turbo o1 o1-preview o1-mini o3 Claude Gemini LLaMA "
        "Llama Llama-2 Llama-3 Llama-3.1 Llama2 Llama3 LLaMA-2 LLaMA-3 Mistral Mixtral Qwen "
        "Qwen2 Qwen2.5 DeepSeek Vicuna Alpaca BERT RoBERTa T5 CLIP ViT DiT ResNet ResNet-50 "
        "ResNet-18 VGG U-Net UNet NeRF 3DGS SAM DINO DINOv2 MAE VAE GAN GANs CNN RNN LSTM GRU "
        "MLP GNN GCN GAT MPNN SSM SSMs Mamba Transformer Transformers MoE LoRA QLoRA PEFT SFT "
        "RLHF DPO PPO RLAIF KL SGD Adam AdamW ImageNet ImageNet-1K ImageNet-21K CIFAR CIFAR-10 "
        "CIFAR-100 MNIST COCO MS-COCO SVHN CelebA LAION GSM8K GSM8k MATH MMLU HumanEval MBPP "
        "BIG-Bench HellaSwag ARC TruthfulQA WikiText C4 SQuAD GLUE SuperGLUE FID KID IS PSNR "
        "SSIM LPIPS BLEU ROUGE AUC AUROC ROC MSE MAE RMSE OOD IID ID SOTA API APIs GPU GPUs TPU "
        "CPU CUDA PyTorch JAX TensorFlow HuggingFace RAG CoT ICL MCTS MDP MDPs POMDP DDPM DDIM "
        "SDE ODE PDE PDEs SDEs ODEs KAN KANs NTK PAC UCB TD DQN SAC TD3 Q-learning IRL BC "
        "NeurIPS ICLR ICML CVPR ECCV ICCV ACL EMNLP AAAI arXiv GitHub MRI fMRI EEG CT DNA RNA PDB "
        "SMILES"
    )
)

_NAMEY_GENERIC_START = word_set(
    "we our this these those the a an in to for of on with by from at as it its their however "
    "moreover furthermore additionally specifically finally first second third then thus hence "
    "here there recent existing prior previous current many most some such while although "
    "despite unlike although since because when where which what how why our"
)


def strip_possessive(token: str) -> str:
    """``ParaSolver's`` -> ``ParaSolver``."""
    if token.endswith(("'s", "’s")):
        return token[:-2]
    if token.endswith(("'", "’")):
        return token[:-1]
    return token


@functools.lru_cache(maxsize=8192)
def name_shape(token: str) -> int:
    """How much a token looks like a coined name: 2 strong, 1 weak (Capitalized word), 0 none."""
    if len(token) < 2 or len(token) > 40:
        return 0
    lower = token.casefold()
    if lower.endswith(_ADJECTIVE_SUFFIXES):
        return 0
    if _RE_ROMAN.match(token) or _RE_NUMBERISH.match(token):
        return 0
    uppers = sum(map(str.isupper, token))
    if uppers == 0:
        return 0
    if not any(map(str.isalpha, token)):
        return 0
    if token.endswith("+"):
        return 2
    if "-" in token and all(
        part[:1].isupper() and part[1:].islower() or part.islower() for part in token.split("-")
    ):
        # "Few-Class", "Off-by-One", "Tamper-Resistant": a compound word, not a coinage
        return 1 if token[0].isupper() and token.casefold() not in _NAMEY_GENERIC_START else 0
    if uppers >= 2:
        return 2
    if not token[0].isupper():
        if uppers == 1 and not token[:3].islower():
            return 2  # kNN, xFinder, rStar: a short lowercase prefix
        if uppers == 1:
            return 0  # "emboDied": a highlighted letter inside an ordinary word
        return 2
    if any(ch.isdigit() for ch in token):
        return 2
    if lower in _NAMEY_GENERIC_START:
        return 0
    return 1


def acronym_core(token: str) -> str:
    """``LLMs`` -> ``LLM``: the form to match against a long form."""
    if RE_PLURAL_ACRONYM.match(token):
        return token[:-1]
    return token


def is_common(token: str) -> bool:
    """Whether a token is field vocabulary (``LLMs``, ``GPT-4``) rather than a coined name."""
    folded = token.casefold()
    return folded in _COMMON_TERMS or acronym_core(token).casefold() in _COMMON_TERMS
