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
    "5e685f94a09a605c23945e1c6e9c555434198ea86aa0b2d2d19b30d9e1de28555ddccbb0a6cbadda8f5cae9d"
    "32caa4ac9dc371718d9ef6da53b3c6e3538537156fa262748f63a5c8372f225d3d56d46e258862643e92be37"
    "5f2bdbd03cc779462d8bc0292e408c3e00d07fa0182432243140243a22b8d77d85b75449392556933b4d6a5a"
    "3947574d5c69395158596b6b67796efec73c9dacbb302619edf1f41a3016fdfefe191a192d46532e6a2b0071"
    "b1d45d00605240f0e442cb79a6c4dcb186989937584da6c997445c5a6479838795a5263238f7f1e21b242a55"
    "493593a3a79dc585697b793b32236a4525788695313c49fde8892e6d61141d2993814a7e939a5a68766e8a50"
    "222c3855783ae4e8e835464a778c5289b38724292a3445380053822a241eada430717d8b9257785a59483d6a"
    "2844473395b1672b4227414d5a4a6338373b399944001d2b443343292b4445444c4538562c51422a6c964718"
    "4462515d6a445747461532583d2bb9dd8db8d0ff5c8530566656003350d4d9d8626d782839515a374ac5c9c9"
    "929ca878838b5a52371d32266c671eaab2ba68774adce3e5929996445639828c98b5bcb6477b35d3e3f9665a"
    "35b5bbc33c320a22381ca789391e3237333e54798776602a0087938691aa66d5aa3be19211a2a9a9cbd2d51d"
    "4944a5abb3dea8c62a56282b4236754861b6943ab06890888d8c9ba599c7ccd2a54a02cec439e7b73c756739"
    "f0ac271a3346d8dde17a3906b75100a06084655b251a2c1abcd6c776a44be9edf1372932616641f4bb358a84"
    "29bcb336acc9a556465fccd3cc506d34b9c3c9395438fde176c056226c6039a7c77400629964676a9a813a09"
    "44668a75397896a8947b37006aa6bd719ac9ea9b59a3cde496598a827350565789ba658d6b4d8ba8830d364d"
    "bcc2bbc658008aab57592f0d4c6745ded43eaecbc0183c554535396a8465544b16aab3a97c9556587941caa3"
    "3a96b99461923c847d2c65785a799b784ca03ab0bdd3b09173572e45d796ba606e80648747b4cbfaffd86445"
    "422e7b9283827d7a25421dc1cde1c1dba4bedb97"
)
