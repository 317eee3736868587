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
    "5e695f94a09a605c23945e1c6e9c555434198eaa69d2d2ada0b2d2d19b30adcfa6d9e1de23575bda8f5cae9d"
    "32caa4ac9dc371f6da53b3c6e3718fa1538537156fa262748f63a5c8372f225d3d56d46e258862643e92bedb"
    "d03cc779463559262d8bc0292e408c3e00d07fa0182432243140243a22b8d77d85b75449392556933b4d6a5a"
    "3947574d5c69395158596b6b67796efec73c9dacbb302619edf1f41a3016fdfefe191a192e6a2b2c46530071"
    "b1d45d00605240f0e442cb79a6c4dcb186989937584da6c997445c5a6479838795a5263238f7f1e21b242a55"
    "493593a3a79dc5853b32236a45257886956a7b79313c49fde8892e6d61141d2993814a3d6b277e939a6e8950"
    "222c3855783ae4e8e85a6777778c5289b38724292a35464a3445380053822a241eada430717d8b9257785a59"
    "4844473395b1672b4227414d5ab9dd8d4a63385d8530373b399944001d2b44334329444c4538562b51422a6c"
    "9647184462515d6a445747461532583d2bb8d0ff003350d4d9d8566756626d782839515a374ac5c9c9929ca8"
    "78838b5a52371d32266c671eaab2ba68774adce3e5929996445639828c98b5bcb6477b35d3e3f9665a35b5bb"
    "c33c320a22381ca789391e3237333e54798776602a0087938691aa66d5aa3be19211a2a9a9cbd2d51d4944a5"
    "abb3dea8c62a56287548612b42362b4448b6943ab06890888d8c9ba599c7ccd2a54a02cec439e7b73c756739"
    "f0ac271a3346d8dde13856387a3906b75100a06084655b251a2c1abcd6c776a44be9edf1372932616641c9ea"
    "9bf4bb358a8429bcb3364a6746acc9a556465fccd3cc506d34b9c3c9fde176c056226c6039a7c7740062998b"
    "a88364676a9a813a0944668a75397896a8947b37006aa6577742bd719a59a3cd7a9a78e496598a8273505657"
    "89ba658d6b4d0d364dbcc2bbc658008aab576a8465592f0dded43eaecbc0183c5545353996b895544b16aab3"
    "a97c9556caa33a61923c847d2c3c633665785a4ca03ab0bdd3b09173572e45d796ba648747839a79606e80b4"
    "cbfaffd86445422e7b9283827d7a25421dc1cde1"
)
