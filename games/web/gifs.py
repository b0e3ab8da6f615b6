"""Animated GIFs from SVG frames (a replay's ``replay.gif``): rasterised with CairoSVG, assembled with Pillow.

Pure Python without Django: the server builds the frames' SVG (the share preview's drawing, see
``games/web/replaygif.py``) and runs these functions in its worker pool (``pool.submit_call``), since
rasterising holds the GIL. ``rasterise`` turns a few frames into 256-colour PNG bytes (each frame its own
palette, no dithering: flat colours stay flat; small to send back); ``assemble`` makes the GIF from them:
per-frame durations, looping, and Pillow stores only the part of each frame that changed.
"""
from __future__ import annotations

import io


def _draw(svg: str, width: int, height: int):
    """One SVG as a Pillow RGB image of ``width`` x ``height``."""
    from PIL import Image
    try:  # CairoSVG's surface directly: half the time of a PNG round trip
        from cairosvg.parser import Tree
        from cairosvg.surface import PNGSurface
        surface = PNGSurface(Tree(bytestring=svg.encode("utf-8")), None, 96, output_width=width,
                             output_height=height).cairo
        surface.flush()
        image = Image.frombuffer("RGBA", (surface.get_width(), surface.get_height()), bytes(surface.get_data()),
                                 "raw", "BGRA", surface.get_stride(), 1)
    except (ImportError, AttributeError, TypeError):  # another CairoSVG: its public API
        import cairosvg
        image = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width,
                                                       output_height=height)))
    if image.size != (width, height):
        image = image.resize((width, height))
    background = Image.new("RGB", image.size, (255, 255, 255))
    if image.mode == "RGBA":
        background.paste(image, mask=image.getchannel("A"))
        return background
    return image.convert("RGB")


def rasterise(svgs: list[str], width: int, height: int) -> list[bytes]:
    """Each SVG drawn at ``width`` x ``height``, as the PNG bytes of a 255-colour palette image."""
    from PIL import Image
    out = []
    for svg in svgs:
        frame = _draw(svg, width, height).quantize(colors=255, method=Image.Quantize.FASTOCTREE,
                                                   dither=Image.Dither.NONE)
        buffer = io.BytesIO()
        frame.save(buffer, "PNG", compress_level=1)
        out.append(buffer.getvalue())
    return out


def assemble(pngs: list[bytes], durations: list[int], loop: int = 0) -> bytes:
    """A GIF of the frames (PNG bytes) shown for ``durations`` milliseconds each, looping (0: forever)."""
    from PIL import Image
    if not pngs:
        raise ValueError("no frames")
    frames = []
    for data in pngs:
        frame = Image.open(io.BytesIO(data))
        frame.load()
        frames.append(frame if frame.mode == "P" else frame.convert("RGB"))
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=list(durations), loop=loop,
                   disposal=1)
    return buffer.getvalue()
