"""From a photo to an image Tesseract reads well: the card found, straightened, evenly lit, at a good size.

OpenCV does the work; the steps and their parameters are in ``Preprocessing``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageOps

from .result import Box


@dataclass(frozen=True)
class Preprocessing:
    """The parameters of the pre-processing (the defaults suit a card photographed by a phone)."""

    detect_side: int = 800  # the card's outline is looked for in a copy this long on its long side
    min_card_area: float = 0.15  # an outline must cover this share of the photo to be taken for the card
    card_long_side: int = 1200  # the straightened card is scaled to this long side (up or down)
    inset: float = 0.02  # this share of the card's width is cut off each edge (its printed border)
    pad: int = 24  # pixels of white added round the image (Tesseract drops text at an edge)
    light_kernel: float = 0.04  # the background light is estimated over this share of the long side
    sharpen: float = 1.0  # unsharp masking (Gaussian of 2 px): this much of the detail is added back (0: none)


@dataclass(frozen=True)
class Prepared:
    """The image to read and how to map its pixels back onto the photo."""

    image: np.ndarray  # 8-bit grey, dark text on a light ground
    photo_size: tuple[int, int]
    card_corners: tuple[tuple[float, float], ...] | None  # in the photo; None when no outline was found
    to_photo: np.ndarray  # 3 × 3 homography from the prepared image to the photo
    # The whole card (its cut border included) in the image: (left, top, width, height) in pixels, for the
    # regions a card layout declares as shares of the card; None: the image itself.
    card_frame: tuple[float, float, float, float] | None = None

    def photo_box(self, box: Box) -> Box:
        """``box`` of the prepared image as the smallest upright box in the photo holding its four corners."""
        corners = np.array(
            [[[box.left, box.top]], [[box.right, box.top]], [[box.right, box.bottom]], [[box.left, box.bottom]]],
            dtype=np.float64,
        )
        mapped = cv2.perspectiveTransform(corners, self.to_photo).reshape(-1, 2)
        width, height = self.photo_size
        left = int(np.clip(np.floor(mapped[:, 0].min()), 0, width - 1))
        top = int(np.clip(np.floor(mapped[:, 1].min()), 0, height - 1))
        right = int(np.clip(np.ceil(mapped[:, 0].max()), left + 1, width))
        bottom = int(np.clip(np.ceil(mapped[:, 1].max()), top + 1, height))
        return Box(left, top, right - left, bottom - top)


def load(photo: Image.Image) -> np.ndarray:
    """The photo's pixels as 8-bit RGB, turned as its EXIF orientation says."""
    turned = ImageOps.exif_transpose(photo)
    return np.asarray((turned if turned is not None else photo).convert("RGB"))


def _order_corners(points: np.ndarray) -> np.ndarray:
    """Four points as top left, top right, bottom right, bottom left (for a card turned by less than 45°)."""
    points = points.reshape(4, 2).astype(np.float32)
    sums = points.sum(axis=1)
    diffs = np.diff(points, axis=1).ravel()  # y - x
    return np.array(
        [points[np.argmin(sums)], points[np.argmin(diffs)], points[np.argmax(sums)], points[np.argmax(diffs)]],
        dtype=np.float32,
    )


def find_card(rgb: np.ndarray, settings: Preprocessing) -> np.ndarray | None:
    """The card's four corners in the photo (ordered, float32), or None when no outline is large enough.

    The largest outer contour of the edges (Canny, closed by a dilation) is simplified to a quadrilateral;
    when it does not simplify to four points, its smallest enclosing turned rectangle is taken.
    """
    height, width = rgb.shape[:2]
    scale = min(1.0, settings.detect_side / max(height, width))
    small = cv2.resize(rgb, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), (5, 5), 0)
    median = float(np.median(grey))
    edges = cv2.Canny(grey, int(max(0, 0.66 * median)), int(min(255, 1.33 * median) + 1))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8), iterations=2)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    if cv2.contourArea(hull) < settings.min_card_area * small.shape[0] * small.shape[1]:
        return None
    quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
    if len(quad) != 4:
        quad = cv2.boxPoints(cv2.minAreaRect(hull))
    return _order_corners(np.asarray(quad, dtype=np.float32) / scale)


def even_light(grey: np.ndarray, settings: Preprocessing) -> np.ndarray:
    """``grey`` divided by its background light (a closing with a kernel larger than the strokes, then blurred),
    so that shade and a light falling off towards a corner become one white ground."""
    size = max(15, int(settings.light_kernel * max(grey.shape)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    background = cv2.GaussianBlur(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel), (size, size), 0)
    return cv2.divide(grey, np.maximum(background, 1), scale=255)


def clear_edges(image: np.ndarray) -> np.ndarray:
    """``image`` with every dark shape that touches its edge made white: what is left of the card's printed
    border or of the table after the cut, which Tesseract would read as a line of ー or |."""
    _, dark = cv2.threshold(image, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    count, labels = cv2.connectedComponents(dark, connectivity=8)
    if count <= 1:
        return image
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    edge = edge[edge != 0]
    cleared = image.copy()
    cleared[np.isin(labels, edge)] = 255
    # And a thin band along the edge, where a faint rest of the border too light to be dark may stay.
    band = max(2, round(0.01 * min(image.shape)))
    cleared[:band, :] = cleared[-band:, :] = 255
    cleared[:, :band] = cleared[:, -band:] = 255
    return cleared


def prepare(photo: Image.Image, settings: Preprocessing | None = None) -> Prepared:
    """Find the card, straighten it (perspective and turn), scale it to ``card_long_side``, even its light."""
    settings = settings or Preprocessing()
    rgb = load(photo)
    height, width = rgb.shape[:2]
    corners = find_card(rgb, settings)
    if corners is None:
        # No outline: the whole photo, scaled.
        corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
        found = None
        inset = 0.0
    else:
        found = tuple((float(x), float(y)) for x, y in corners)
        inset = settings.inset
    top_left, top_right, bottom_right, bottom_left = corners
    card_w = float(np.linalg.norm(top_right - top_left) + np.linalg.norm(bottom_right - bottom_left)) / 2
    card_h = float(np.linalg.norm(bottom_left - top_left) + np.linalg.norm(bottom_right - top_right)) / 2
    scale = settings.card_long_side / max(card_w, card_h, 1.0)
    out_w, out_h = max(1, round(card_w * scale)), max(1, round(card_h * scale))
    # The card's corners land just outside the output, so that its printed border is cut off (``inset``).
    margin = inset * out_w
    target = np.array(
        [[-margin, -margin], [out_w + margin, -margin], [out_w + margin, out_h + margin], [-margin, out_h + margin]],
        dtype=np.float32,
    )
    to_image = cv2.getPerspectiveTransform(corners, target)
    interpolation = cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    straight = cv2.warpPerspective(grey, to_image, (out_w, out_h), flags=interpolation, borderMode=cv2.BORDER_REPLICATE)
    image = even_light(straight, settings)
    if settings.sharpen:
        soft = cv2.GaussianBlur(image, (0, 0), 2.0)
        image = cv2.addWeighted(image, 1 + settings.sharpen, soft, -settings.sharpen, 0)
    image = clear_edges(image)
    # A white margin round it: Tesseract drops text that touches the image's edge.
    pad = settings.pad
    image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    shift = np.array([[1, 0, pad], [0, 1, pad], [0, 0, 1]], dtype=np.float64)
    to_image = shift @ to_image
    return Prepared(
        image=image,
        photo_size=(width, height),
        card_corners=found,
        to_photo=np.linalg.inv(to_image),
        card_frame=(pad - margin, pad - margin, out_w + 2 * margin, out_h + 2 * margin),
    )
