"""LaTeX symbol names and the characters they stand for, written once for every reader.

Only data lives here (what ``\\ell`` or ``\\mathbb{R}`` stands for); how a command reads its
arguments is the converter's business (``storage.text.latex``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

#: Greek letters by their LaTeX names (``\alpha`` → α, ``\varphi`` → φ, ``\Omega`` → Ω).
GREEK: Final[Mapping[str, str]] = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "vartheta": "ϑ",
    "iota": "ι",
    "kappa": "κ",
    "varkappa": "ϰ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "omicron": "ο",
    "pi": "π",
    "varpi": "ϖ",
    "rho": "ρ",
    "varrho": "ϱ",
    "sigma": "σ",
    "varsigma": "ς",
    "tau": "τ",
    "upsilon": "υ",
    "phi": "φ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Alpha": "Α",
    "Beta": "Β",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Epsilon": "Ε",
    "Zeta": "Ζ",
    "Eta": "Η",
    "Theta": "Θ",
    "Iota": "Ι",
    "Kappa": "Κ",
    "Lambda": "Λ",
    "Mu": "Μ",
    "Nu": "Ν",
    "Xi": "Ξ",
    "Omicron": "Ο",
    "Pi": "Π",
    "Rho": "Ρ",
    "Sigma": "Σ",
    "Tau": "Τ",
    "Upsilon": "Υ",
    "Phi": "Φ",
    "Chi": "Χ",
    "Psi": "Ψ",
    "Omega": "Ω",
    "varGamma": "Γ",
    "varDelta": "Δ",
    "varTheta": "Θ",
    "varLambda": "Λ",
    "varXi": "Ξ",
    "varPi": "Π",
    "varSigma": "Σ",
    "varPhi": "Φ",
    "varPsi": "Ψ",
    "varOmega": "Ω",
}

#: The Greek letter names, lower case (``\Tau`` and ``\tau`` both name a letter).
GREEK_NAMES: Final[frozenset[str]] = frozenset(name.lower() for name in GREEK)


#: Symbol commands by name: ``\ell`` → ℓ, ``\times`` → ×, ``\to`` → →, every Greek letter.
SYMBOLS: Final[Mapping[str, str]] = {
    **GREEK,
    # letter-like
    "ell": "ℓ",
    "hbar": "ℏ",
    "aleph": "ℵ",
    "wp": "℘",
    "Re": "ℜ",
    "Im": "ℑ",
    "partial": "∂",
    "nabla": "∇",
    "infty": "∞",
    "emptyset": "∅",
    "varnothing": "∅",
    "R": "ℝ",
    "N": "ℕ",
    "Z": "ℤ",
    # binary operators
    "times": "×",
    "cdot": "·",
    "cdotp": "·",
    "bullet": "•",
    "pm": "±",
    "mp": "∓",
    "div": "÷",
    "ast": "∗",
    "star": "⋆",
    "circ": "∘",
    "otimes": "⊗",
    "oplus": "⊕",
    "ominus": "⊖",
    "odot": "⊙",
    "oslash": "⊘",
    "setminus": "∖",
    "cup": "∪",
    "cap": "∩",
    "bigcup": "⋃",
    "bigcap": "⋂",
    "sqcup": "⊔",
    "uplus": "⊎",
    "vee": "∨",
    "lor": "∨",
    "wedge": "∧",
    "land": "∧",
    "bigvee": "⋁",
    "bigwedge": "⋀",
    "bigoplus": "⨁",
    "bigotimes": "⨂",
    "dagger": "†",
    "dag": "†",
    "ddagger": "‡",
    "ddag": "‡",
    "amalg": "⨿",
    "wr": "≀",
    # big operators
    "sum": "∑",
    "prod": "∏",
    "coprod": "∐",
    "int": "∫",
    "iint": "∬",
    "iiint": "∭",
    "oint": "∮",
    # relations
    "leq": "≤",
    "le": "≤",
    "leqslant": "≤",
    "geq": "≥",
    "ge": "≥",
    "geqslant": "≥",
    "neq": "≠",
    "ne": "≠",
    "ll": "≪",
    "gg": "≫",
    "lll": "⋘",
    "ggg": "⋙",
    "approx": "≈",
    "approxeq": "≊",
    "sim": "~",
    "simeq": "≃",
    "cong": "≅",
    "equiv": "≡",
    "propto": "∝",
    "asymp": "≍",
    "lesssim": "≲",
    "gtrsim": "≳",
    "prec": "≺",
    "succ": "≻",
    "preceq": "⪯",
    "succeq": "⪰",
    "in": "∈",
    "notin": "∉",
    "ni": "∋",
    "subset": "⊂",
    "subseteq": "⊆",
    "subsetneq": "⊊",
    "supset": "⊃",
    "supseteq": "⊇",
    "supsetneq": "⊋",
    "sqsubseteq": "⊑",
    "sqsupseteq": "⊒",
    "perp": "⊥",
    "parallel": "∥",
    "mid": "|",
    "nmid": "∤",
    "vdash": "⊢",
    "dashv": "⊣",
    "models": "⊨",
    "triangleq": "≜",
    "coloneqq": "≔",
    "coloneq": "≔",
    "doteq": "≐",
    "forall": "∀",
    "exists": "∃",
    "nexists": "∄",
    "neg": "¬",
    "lnot": "¬",
    "top": "⊤",
    "bot": "⊥",
    "angle": "∠",
    "triangle": "△",
    "square": "□",
    "Box": "□",
    "Diamond": "◇",
    "diamond": "⋄",
    "checkmark": "✓",
    "prime": "′",
    "degree": "°",
    "surd": "√",
    # arrows
    "to": "→",
    "rightarrow": "→",
    "longrightarrow": "⟶",
    "gets": "←",
    "leftarrow": "←",
    "longleftarrow": "⟵",
    "leftrightarrow": "↔",
    "longleftrightarrow": "⟷",
    "Rightarrow": "⇒",
    "Longrightarrow": "⟹",
    "implies": "⟹",
    "Leftarrow": "⇐",
    "Longleftarrow": "⟸",
    "impliedby": "⟸",
    "Leftrightarrow": "⇔",
    "Longleftrightarrow": "⟺",
    "iff": "⟺",
    "uparrow": "↑",
    "downarrow": "↓",
    "updownarrow": "↕",
    "Uparrow": "⇑",
    "Downarrow": "⇓",
    "nearrow": "↗",
    "searrow": "↘",
    "nwarrow": "↖",
    "swarrow": "↙",
    "mapsto": "↦",
    "longmapsto": "⟼",
    "hookrightarrow": "↪",
    "hookleftarrow": "↩",
    "rightharpoonup": "⇀",
    "leftharpoonup": "↼",
    "rightleftharpoons": "⇌",
    "leadsto": "⇝",
    # delimiters
    "langle": "⟨",
    "rangle": "⟩",
    "lceil": "⌈",
    "rceil": "⌉",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lvert": "|",
    "rvert": "|",
    "vert": "|",
    "lVert": "‖",
    "rVert": "‖",
    "Vert": "‖",
    "lbrace": "{",
    "rbrace": "}",
    "lbrack": "[",
    "rbrack": "]",
    "backslash": "\\",
    # dots and spaces
    "dots": "…",
    "ldots": "…",
    "dotsc": "…",
    "dotsb": "⋯",
    "cdots": "⋯",
    "vdots": "⋮",
    "ddots": "⋱",
    "quad": " ",
    "qquad": " ",
    "enspace": " ",
    "thinspace": " ",
    "medspace": " ",
    "thickspace": " ",
    "space": " ",
    "newline": " ",
    "linebreak": " ",
    "par": " ",
    "item": " ",
    "hfill": " ",
    # text symbols
    "textbackslash": "\\",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textendash": "–",
    "textemdash": "—",
    "textquoteleft": "‘",
    "textquoteright": "’",
    "textquotedblleft": "“",
    "textquotedblright": "”",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "textbullet": "•",
    "textdegree": "°",
    "textregistered": "®",
    "texttrademark": "™",
    "textcopyright": "©",
    "copyright": "©",
    "textsection": "§",
    "S": "§",
    "P": "¶",
    "pounds": "£",
    "euro": "€",
    "textdollar": "$",
    "textunderscore": "_",
    "textasteriskcentered": "*",
    # a hyphen and a slash after which a line may break (hyphenat's ``\hyphen``, LaTeX's
    # ``\slash``): ``self\hyphen supervised`` is printed ``self-supervised``
    "hyphen": "-",
    "slash": "/",
    "i": "ı",
    "j": "ȷ",
    "o": "ø",
    "O": "Ø",
    "ss": "ß",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "aa": "å",
    "AA": "Å",
    "l": "ł",
    "L": "Ł",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "eg": "e.g.",
    "ie": "i.e.",
    "etal": "et al.",
    "etc": "etc.",
    "vs": "vs.",
    "wrt": "w.r.t.",
    "cf": "cf.",
}


#: Accents written with a symbol (``\"o``): the combining mark, and the fallback shown when
#: nothing composes.
SYMBOL_ACCENTS: Final[Mapping[str, tuple[str, str]]] = {
    '"': ("\u0308", '"'),
    "'": ("\u0301", "'"),
    "`": ("\u0300", "`"),
    "^": ("\u0302", "^"),
    "~": ("\u0303", "~"),
    "=": ("\u0304", "="),
    ".": ("\u0307", "."),
}
#: Accents written with a letter (``\v{c}``) and their combining marks.
LETTER_ACCENTS: Final[Mapping[str, str]] = {
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "b": "\u0331",
    "d": "\u0323",
    "t": "\u0361",
    "textcommabelow": "\u0326",  # Romanian ș, ț (a cedilla, ``\c{s}``, is ş)
}
#: Math accents (``\hat{x}``) and their combining marks.
MATH_ACCENTS: Final[Mapping[str, str]] = {
    "hat": "\u0302",
    "widehat": "\u0302",
    "tilde": "\u0303",
    "widetilde": "\u0303",
    "Tilde": "\u0303",
    "bar": "\u0304",
    "overline": "\u0305",
    "vec": "\u20d7",
    "overrightarrow": "\u20d7",
    "dot": "\u0307",
    "ddot": "\u0308",
    "check": "\u030c",
    "breve": "\u0306",
    "acute": "\u0301",
    "grave": "\u0300",
    "mathring": "\u030a",
}


def _alphabet(upper: int, lower: int | None, exceptions: dict[str, str]) -> dict[str, str]:
    """Map A-Z (and a-z) onto a Unicode mathematical alphabet starting at the given points."""
    table = {chr(65 + k): chr(upper + k) for k in range(26)}
    if lower is not None:
        table.update({chr(97 + k): chr(lower + k) for k in range(26)})
    table.update(exceptions)
    return table


#: ``\mathbb``: ℝ, ℕ, 𝔼 …
DOUBLE_STRUCK: Final[Mapping[str, str]] = _alphabet(
    0x1D538,
    0x1D552,
    {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}
    | {str(k): chr(0x1D7D8 + k) for k in range(10)},
)
#: ``\mathcal`` and ``\mathscr``: 𝒪, ℒ, ℱ …
SCRIPT: Final[Mapping[str, str]] = _alphabet(
    0x1D49C,
    0x1D4B6,
    {
        "B": "ℬ",
        "E": "ℰ",
        "F": "ℱ",
        "H": "ℋ",
        "I": "ℐ",
        "L": "ℒ",
        "M": "ℳ",
        "R": "ℛ",
        "e": "ℯ",
        "g": "ℊ",
        "o": "ℴ",
    },
)
#: ``\mathfrak``: 𝔤, ℭ …
FRAKTUR: Final[Mapping[str, str]] = _alphabet(
    0x1D504, 0x1D51E, {"C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"}
)


def _scripts(plain: str, raised: str, already: str = "") -> dict[str, str]:
    """Map each character of ``plain`` onto the same place in ``raised``; the glyphs of
    ``raised`` and ``already`` stand for themselves."""
    return dict(zip(plain, raised, strict=True)) | {c: c for c in already + raised}


#: Characters that have a superscript form, and that form (``2`` → ``²``, ``T`` → ``ᵀ``); glyphs
#: that already sit high (``′``, ``†``, ``²``) stand for themselves.
SUPERSCRIPTS: Final[Mapping[str, str]] = _scripts(
    "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWβγδθιφχ⊤∘",
    "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᶥᵠᵡᵀ°",
    already="′″‴⋆†‡°",
)

#: Characters that have a subscript form, and that form (``2`` → ``₂``, ``i`` → ``ᵢ``).
SUBSCRIPTS: Final[Mapping[str, str]] = _scripts(
    "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
    "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
)

#: pifont's ``\ding`` numbers: check marks, stars and the circled digits.
DINGS: Final[Mapping[int, str]] = (
    {51: "✓", 52: "✔", 55: "✗", 56: "✘", 72: "★", 73: "☆", 108: "●", 110: "■"}
    | {172 + k: chr(0x2460 + k) for k in range(10)}
    | {182 + k: chr(0x2776 + k) for k in range(10)}
    | {192 + k: chr(0x2780 + k) for k in range(10)}
    | {202 + k: chr(0x278A + k) for k in range(10)}
)
