"""The one 256-colour palette every board picture is encoded with (`render.draw.encode_png`).

Finding a palette for each picture (Pillow's fast octree) was the costliest step of a picture,
more than drawing it; mapping a picture to a palette known in advance takes a fraction of that
time. This palette is the octree's palette of pictures of reference positions that hold every
colour the board uses (four seats and their pieces, shadows, highlights, the "YOU" mark, the
Next-sun preview, every mode of Under the Moonlight; `render.palette_build`), so a picture
mapped to it reads as it did with its own palette (tests/test_render.py measures how close it
stays to the full-colour drawing). When the drawing's colours change, make it again:

    .venv/bin/python -m render.palette_build --write
"""

from __future__ import annotations

#: 256 RGB triples, made by `render.palette_build`.
PALETTE = bytes.fromhex(
    "5f5c23955e1c6d985695a09654341960655fa0b2d38ca667d09c2fadd0a6dbe2e0235659759095dac8b0ae9d"
    "32b3c6e49dc370f6da53dc915bcba2ac156fa2548538627390372f225d3d565da3c7d46d26876065dbd03c3e"
    "92bec67945355a271b2e412d8bc08c3e00d07fa0182432243140243a22b8d77d85b75449392556933b567740"
    "394757566847768b58667b51fec73c9dacbb302619405a36edf1f42a4929191a1a2e6a2bfdfefe0071b1d45d"
    "006052401a3016f0e442cb79a6c4dcb133562c3961304a67391a2626a6c99892a58819362255493513241962"
    "7d6735462b9bae99f7f1e227323a9dc5858896a53b33236a7b796a4525829987737c87fde8897886952e6d61"
    "89a38a93814a89b387141d2955783a6e8950222c38899793313d4b5a6877a1a5aae4e8e80053822429293746"
    "344a5665ada4309257786977865a59483d6a2844473395b1672a241e0f1d19373b393a5333878d9699440041"
    "4d5b51422a6c9647184462515d6a66774a4615325b8631583d2b636d78b8d0ffb9dd8d22381c00335098a1ab"
    "929da75a374a929897d4d9d9c5c9c95952376c671e465845655a35dce3e5576369aab2ba77828b487b35a789"
    "39b5bbc247535b3c320a35414b464b45602a00798876878c8cd5aa3b91aa67e19211586756cbd2d52a56281d"
    "4944b5bcb7a5abb3333e54dea8c6754861b06890c7ccd2d3e3f9b6943a756738a54a02cec439f0ac2764686b"
    "d8dde1e7b73c7a3906525857a8c875b75100a06084655b25e9edf13729326166418a8429bcb336506d345646"
    "5fbcd6c7193345f5bb35fde176b9c2c99a813a0062994d66440944666b60397896a8947b37006aa6bd719ac9"
    "ea9bcbd3cc59a3cd89ba6585987ae4965976a54b7a9979acc8a58b75390d364dc658008aab576a84648a8172"
    "7cac517b9455592f0d678648ded43e183c5545353973777a544b16c05622caa23a61923c26421d847d2cbcc2"
    "ba4ca03a1c38325c7256b0bdd3769063b090738d6b4db4ccfa572e45d796ba284135606e8097b893aecbc0aa"
    "b3a9ffd86445422e827d7a8598bac1cde1c1dba4"
)
