"""Write the final IR of the seed model and of every committed fixture to
tests/golden/final_ir/, the reference `tests/pytest/test_golden_ir.py` holds
refactors to. Run it only when a change to the IR is meant, and say why in
the commit.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pytest.test_golden_ir import GOLDEN, MODELS, final_ir  # noqa: E402


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, path in MODELS.items():
        text, blob = final_ir(path)
        (GOLDEN / f"{name}.mlir").write_text(text)
        (GOLDEN / f"{name}.constants.sha256").write_text(
            hashlib.sha256(blob).hexdigest() + "\n"
        )
        print(f"{name}: {len(text)} characters, {len(blob)} constant bytes")


if __name__ == "__main__":
    main()
