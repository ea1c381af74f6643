"""Google's Hugging Face DLC for Text Generation Inference is read as TGI, so its QUANTIZE
values are TGI's (tests/fixtures/google-dlc-tgi, shaped like the GKE L4 serving tutorials)."""

from __future__ import annotations

import os

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.facts.model_decl import server_from_image

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "google-dlc-tgi")


def test_dlc_image_is_tgi() -> None:
    image = ("us-docker.pkg.dev/deeplearning-platform-release/gcr.io/"
             "huggingface-text-generation-inference-cu121.2-2.ubuntu2204.py310")
    assert server_from_image(image) == "text-generation-launcher"
    # The PyTorch training DLC of the same registry is not a server.
    assert server_from_image("us-docker.pkg.dev/deeplearning-platform-release/gcr.io/"
                             "huggingface-pytorch-training-cu121.2-3.transformers.4-42") is None


def test_nf4_from_quantize_is_known() -> None:
    result = scan.run([os.path.relpath(FIXTURE)], [], Settings(scan=ScanSettings()))
    (res,) = [r for r in result.resources if r.address == "Deployment/chat-70b"]
    assert res.facts["model.precision"] == "nf4"
    assert not [u for u in res.unknowns if u[0].startswith("model.")]
