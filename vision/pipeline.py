"""Reading a photo: the detector finds tiles, the classifier reads each upright full-resolution crop.

A 17-tile hand shrunk into a 640-pixel input leaves about 30 pixels per tile, too few to tell 8s
from 9s; the classifier reads each tile from the full-resolution photo instead, all crops in one
batch. A single-stage detector (classes that are tile codes) reads tiles without a classifier.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.tiles import tile_from_code
from vision.boxes import clip_boxes, decode_yolo_anchors, grown, letterbox, nms, to_original
from vision.crops import crop_upright, read_crops, to_batch
from vision.detection import LOW_CONFIDENCE, Detection, PhotoReading, reading_order
from vision.errors import ModelError
from vision.face_colour import (
    BLANK_CODE,
    face_white,
    is_back,
    is_back_of_set,
    is_blank_face,
    is_face_of_set,
    lab_of_hex,
    looks_white,
)
from vision.models import (
    MIN_READ_KEY,
    SHIPPED_MODELS,
    ZOOM_BELOW_KEY,
    ModelClass,
    ModelInfo,
    OnnxModel,
    load_info,
    named_models,
    second_look_info,
)
from vision.out_of_scale import out_of_scale
from vision.second_opinion import question
from vision.set_counts import surplus_reads
from vision.tile_sets import UNSAID_BACKS, Backs, plain_five
from vision.weak_boxes import READ_AT_LEAST, beside_confident, inside_surer

DETECT_CONFIDENCE = 0.25
"""The detector score a box needs, unless the detector's metadata names its own
(``detect_confidence``): each training run scores boxes on its own scale, so the threshold is a
fact about the model, picked by ``benchmarks/threshold_sweep.py`` on labelled real photos."""
NMS_IOU = 0.5
MAX_TILES = 400  # a full table (four hands, melds, flowers, discards) is 150+ tiles
ZOOM_GAIN = 1.3  # a second look is taken only when it shows the tiles this much bigger
STEP_BACK = 2.0
"""A photo in which the first look finds fewer than ``STEP_BACK_FEWER`` tiles is looked at again
shrunk by this factor into a canvas of its own size, and the look with the surer best tile is
kept: a tile photographed from a hand's breadth fills the frame, bigger than any tile the detector
learnt, which then finds nothing or boxes the pips of its face (the real close-up of one 中, 750
pixels of 2048, scored 0.00 as it is and 0.6-0.8 at 1.5-3 times smaller)."""
STEP_BACK_FEWER = 3
STEP_BACK_FILL = 114  # ultralytics' letterbox grey: the canvas around the shrunk photo
READ_AGAIN_BELOW = 0.9  # a classifier read less sure than this is read again, turned round
ALTERNATIVE_MIN = 0.05  # a runner-up below this is noise, not an alternative worth showing
TURNED_READ_AT_LEAST = 0.9
"""A crop read as no tile is taken a quarter turned only when it reads this surely so: on the
real photos 0.9 found 2 more tiles for 2 more extra boxes, 0.7 4 more for 5 more."""
# What the pipeline reads from a classifier's metadata besides the model: a fine-tune of it
# inherits them (vision/training/finetune.py).
CLASSIFIER_RUNTIME_FACTS = (MIN_READ_KEY,)
SURE_FLOWER = 0.97
"""Where no flower is in play, a flower read at least this surely is one left on the table (the
example photos' real flowers read 0.93-1.0), read as a flower for the layout to set aside; below
it the face is read as its runner-up (the real bird 1s taken for flowers read 0.36-0.92)."""
SURE_BOX = 0.4
SURE_BOX_MIN_READ = 0.15
"""A box the detector scores at least ``SURE_BOX`` holds a tile; the classifier then only has to
name it at ``SURE_BOX_MIN_READ`` (if its metadata asks more), and the read stays flagged as low
confidence. On the real photos (session 17) the shipped pair's classifier named 2m, 1z and 1s
right at 0.21-0.25 in such boxes and a 7s as 8s, and 0.3-0.5 and 0.10-0.20 changed nothing: 3
tiles and one photo more, no extra box. Measured on mahjong tiles (xiangqi pieces keep the floor)
and on det10's scores: a detector that scores on another scale wants it measured again."""
PLACE_READ_AT_LEAST = 0.8
"""A place the layout says a tile the detector missed may lie (``vision.layout.missed_places``)
holds the face the classifier reads there, both ways up, at least this surely. On the 30 real
photos, places between two found row neighbours, where a tile lies: 50 of 60 read right at 0.8
(54 at 0.7, 47 at 0.9), none wrongly at any of them; places one to two steps past a row's end,
where none lies: 1 of 435 read as a face (a round black button as 1p, at 0.997), 3 at 0.7
(``benchmarks/missed_places.py``)."""
PLACE_INSIDE = 0.75
"""A place at the photo's edge is read only with this share of it in the photo: a tile's edge
stretched to a tile's size reads as a blank 白 (a third of the example photo's 3m, 7m and 1s at
0.82-0.87)."""
GROWN_BY = 0.05
"""A sure box the classifier still calls no tile is read again from a box this much wider and
taller on each side: a box drawn a few pixels short of the face cuts its edge off, which the
classifier learnt as no tile (a real 2s boxed 6 pixels short read not_a_tile 0.73 and, from the
labelled box, 2s 1.00). The grown read counts only when it names a tile at ``READ_AT_LEAST``.
On the real photos: one tile and one photo more, no extra box; 0.08 and 0.05 with 0.10 read the
same."""


class TilePipeline:
    """A detector and (for two stages) a classifier, loaded once and used for every photo."""

    def __init__(
        self,
        detector: OnnxModel,
        classifier: OnnxModel | None,
        pieces: OnnxModel | None = None,
        second_look: OnnxModel | None = None,
        second_opinion: OnnxModel | None = None,
    ) -> None:
        if detector.info.task != "detect":
            raise ModelError(f"{detector.info.name} is not a detector (task {detector.info.task})")
        if classifier is None and not detector.info.is_single_stage:
            raise ModelError(f"{detector.info.name} reads no tile codes and has no classifier")
        if classifier is not None and classifier.info.task != "classify":
            raise ModelError(f"{classifier.info.name} is not a classifier")
        if pieces is not None:
            _check_reader(pieces, classifier, "reads pieces")
        if second_opinion is not None:
            _check_reader(second_opinion, classifier, "is a second opinion")
        self.detector = detector
        # The network the second look runs: the detector in int8 where its metadata names one
        # (half the time of a look; in the second look's enlarged part it found as many tiles,
        # docs/vision.md "Speed"), else the detector itself.
        self.second_look = second_look or detector
        self.classifier = classifier
        # The piece reader reads the boxes the detector calls xiangqi pieces, the classifier
        # every other box. Real pieces are learnt from real photos of a piece set and tiles from
        # synthetic scenes; one network fine-tuned on both read pieces as well but lost real
        # mahjong hands (docs/training.md, session 19), so a models folder may keep them apart.
        self.pieces = pieces
        # A classifier trained apart that reads every face-up tile again; where it names another
        # tile, the tile is flagged for a person to confirm (vision/second_opinion.py).
        self.second_opinion = second_opinion
        # Every threshold below is checked as its metadata loads (vision/models.py SCORE_KEYS).
        detect_confidence = detector.info.number("detect_confidence")
        self.detect_confidence = (
            DETECT_CONFIDENCE if detect_confidence is None else detect_confidence
        )
        # Weak boxes down to this score are kept when they lie beside a confident tile of their
        # size (vision/weak_boxes.py); the detector's metadata names it, as it names its
        # threshold. Without one, boxes under the threshold are dropped.
        self.neighbour_confidence = detector.info.number("neighbour_confidence") or None
        # The tile size (input pixels) below which the detector finds tiles poorly: its
        # metadata's ``zoom_below``, from the sizes it learnt on. Without one, no second look.
        self.zoom_below = detector.info.number(ZOOM_BELOW_KEY) or None
        # A back is a plain block of colour: a classifier sure of it vouches for little (a mat of
        # tile-sized bamboo blocks reads as rows of backs), so a back must be found by the
        # detector itself at this score. The detector's metadata names it; without one, none.
        self.back_confidence = detector.info.number("back_confidence") or 0.0
        # Weak reads far bigger than the photo's tiles, or slivers at the frame's edge, are no
        # tiles (vision/out_of_scale.py); off only to measure what the check takes.
        self.judge_scale = True
        # A detector whose classes are tile codes (the single-stage baseline) reads flowers
        # itself: where none is in play, its flower classes are read as the classifier's are.
        self._detector_flowers = _flower_classes([c.code for c in detector.info.classes])
        if classifier is not None:
            classes = classifier.info.classes
            codes = [c.code for c in classes]
            self._is_piece = np.array([c is not None and c[-1] in "br" for c in codes])
            self._is_not_tile = np.array([k.code is None and not k.face_down for k in classes])
            # A mahjong tile, face up or down: what a box of the detector's tile kinds may hold.
            self._is_tile: np.ndarray = ~self._is_not_tile & ~self._is_piece
            # The detector already tells a round piece from a tile, so a piece is read among
            # the 14 pieces only and a tile never as a piece: the two stages cannot contradict
            # each other. Computed once: every read of every tile looks one up.
            self._allowed_for_piece: np.ndarray = self._is_piece | self._is_not_tile
            self._allowed_for_tile: np.ndarray = ~self._is_piece | self._is_not_tile
            # A classifier with a "back" class reads the detector's face-down boxes too: at full
            # resolution it tells a plain white blank 白 from the back of a tile.
            self._is_back = np.array([k.face_down for k in classes])
            self._reads_backs = bool(self._is_back.any())
            # The least a face-up read's classifier score may be: below it the classifier found
            # no tile it can name (a box on a logo, a key, two tiles' edges), and the box is
            # dropped. The classifier's metadata names it, measured on labelled photos for its
            # own calibration; without, every read stays and the unsure ones are flagged.
            self.min_read_confidence = classifier.info.number(MIN_READ_KEY) or 0.0
            self._red_to_five = [
                (i, codes.index(plain_five(c))) for i, c in enumerate(codes) if plain_five(c) != c
            ]
            self._is_flower = _flower_classes(codes)
            self._blank = codes.index(BLANK_CODE) if BLANK_CODE in codes else -1

    @property
    def score_floor(self) -> float:
        """The lowest detector score a box may have to be looked at at all."""
        if self.neighbour_confidence is None:
            return self.detect_confidence
        return min(self.detect_confidence, self.neighbour_confidence)

    @property
    def models(self) -> tuple[ModelInfo, ...]:
        infos = [self.detector.info]
        if self.classifier is not None:
            infos.append(self.classifier.info)
        if self.pieces is not None:
            infos.append(self.pieces.info)
        if self.second_opinion is not None:
            infos.append(self.second_opinion.info)
        return tuple(infos)

    def read(
        self,
        image: np.ndarray,
        red_fives: bool = True,
        backs: Backs = UNSAID_BACKS,
        flowers: bool = True,
    ) -> PhotoReading:
        """Every tile in a BGR photo, in reading order, with milliseconds per stage.

        ``red_fives=False`` is for a tile set (or a rule set) without red fives: a five read as
        red is a plain five. Sets whose plain fives carry red (most Chinese sets) need it.
        ``flowers=False`` is for a rule set played without flowers: no tile is read as one, and
        a face the classifier took for a flower is read as its likeliest other tile (the bird
        1s it most often takes for one; docs/vision.md).
        ``backs`` says what the set's backs look like: white ones are not told from a blank 白 by
        colour, and a declared colour drops weak backs of another hue (vision/face_colour.py).
        """
        timing: dict[str, float] = {}
        start = time.perf_counter()
        boxes, scores, kinds, took_a_flower = self._detect(image, timing, flowers)
        if self.classifier is None:
            tiles = [
                _single_stage(box, score, kind, red_fives, asked)
                for box, score, kind, asked in zip(boxes, scores, kinds, took_a_flower, strict=True)
            ]
        else:
            tiles, flower_faces = self._classify(
                image, boxes, scores, kinds, timing, red_fives, backs, flowers
            )
            if self.second_opinion is not None:
                asked = time.perf_counter()
                tiles = question(image, tiles, self.second_opinion, SURE_BOX, red_fives, flowers)
                timing["second_opinion"] = _ms(asked)
            # A face taken for a flower where none is in play is asked about however sure its
            # runner-up is, even where the second opinion agrees (with flowers out, both are
            # sure of what is left). Flagged last: earlier, weak boxes beside surer ones drop.
            tiles = [_flower_face(t) if t.box in flower_faces else t for t in tiles]
        timing["total"] = _ms(start)
        return PhotoReading(reading_order(tuple(tiles)), timing)

    def find(
        self, image: np.ndarray
    ) -> list[tuple[tuple[float, float, float, float], float, ModelClass]]:
        """The detector's boxes alone, unread: box, score and kind. For mining the detector's
        mistakes on labelled images (``datasets.synth.hard_negatives``)."""
        boxes, scores, kinds, _ = self._detect(image, {})
        return list(zip(boxes, scores, kinds, strict=True))

    def _detect(
        self, image: np.ndarray, timing: dict[str, float], flowers: bool = True
    ) -> tuple[list[tuple[float, float, float, float]], list[float], list[ModelClass], list[bool]]:
        """The boxes, their scores and kinds, and whether each was read past a flower
        (``_detect_in``)."""
        info = self.detector.info
        boxes, scores, class_ids, took = self._detect_in(image, timing, flowers=flowers)
        confident = scores >= self.detect_confidence
        if confident.sum() < STEP_BACK_FEWER:
            further = self._step_back(image, timing, flowers)
            if further[1].max(initial=0.0) > scores.max(initial=0.0):
                boxes, scores, class_ids, took = further
                confident = scores >= self.detect_confidence
        region = zoom_region(
            boxes[confident], image.shape[1], image.shape[0], info.input_size[0], self.zoom_below
        )
        if region is not None:
            # A second look: tiles far from the camera are a dozen pixels in the network's
            # input, below what it learnt to find. The part of the photo that holds them,
            # enlarged to the full input, shows them at a size it knows; its boxes replace the
            # first look's there (the first look's boxes elsewhere stay).
            x1, y1, x2, y2 = region
            near, near_scores, near_ids, near_took = self._detect_in(
                image[y1:y2, x1:x2], timing, self.second_look, flowers
            )
            near += np.array([x1, y1, x1, y1], np.float32)
            centres_x = (boxes[:, 0] + boxes[:, 2]) / 2
            centres_y = (boxes[:, 1] + boxes[:, 3]) / 2
            outside = (centres_x < x1) | (centres_x > x2) | (centres_y < y1) | (centres_y > y2)
            boxes = np.concatenate([boxes[outside], near])
            scores = np.concatenate([scores[outside], near_scores])
            class_ids = np.concatenate([class_ids[outside], near_ids])
            took = np.concatenate([took[outside], near_took])
            keep = nms(boxes, scores, NMS_IOU, MAX_TILES)
            boxes, scores, class_ids, took = boxes[keep], scores[keep], class_ids[keep], took[keep]
        if self.neighbour_confidence is not None:
            start = time.perf_counter()
            keep = beside_confident(boxes, scores >= self.detect_confidence)
            boxes, scores, class_ids, took = boxes[keep], scores[keep], class_ids[keep], took[keep]
            _add_ms(timing, "nms", start)
        # A box held inside the photo (clip_boxes) may keep less than a pixel of it: one
        # predicted in the letterbox's padding, or past the photo's edge. It shows no tile (its
        # crop is blank, read as some tile all the same), and reconstruct refuses a box of no
        # area (vision.layout.tiles), so detect's own output is never one it refuses.
        sized = (boxes[:, 2] - boxes[:, 0] >= 1) & (boxes[:, 3] - boxes[:, 1] >= 1)
        boxes, scores, class_ids, took = boxes[sized], scores[sized], class_ids[sized], took[sized]
        box_list = [tuple(float(v) for v in box) for box in boxes]
        kinds = [info.classes[int(i)] for i in class_ids]
        return box_list, [float(s) for s in scores], kinds, took.tolist()  # type: ignore[return-value]

    def _step_back(
        self, image: np.ndarray, timing: dict[str, float], flowers: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The look from further away (``STEP_BACK``): the photo shrunk in the middle of a grey
        canvas of its own size, the boxes mapped back to the photo's pixels."""
        height, width = image.shape[:2]
        small_w, small_h = max(1, round(width / STEP_BACK)), max(1, round(height / STEP_BACK))
        left, top = (width - small_w) // 2, (height - small_h) // 2
        canvas = np.full_like(image, STEP_BACK_FILL)
        canvas[top : top + small_h, left : left + small_w] = cv2.resize(
            image, (small_w, small_h), interpolation=cv2.INTER_AREA
        )
        boxes, scores, class_ids, took = self._detect_in(canvas, timing, flowers=flowers)
        scale_x, scale_y = width / small_w, height / small_h
        boxes = (boxes - np.array([left, top, left, top], np.float32)) * np.array(
            [scale_x, scale_y, scale_x, scale_y], np.float32
        )
        return clip_boxes(boxes, width, height).astype(np.float32), scores, class_ids, took

    def _detect_in(
        self,
        image: np.ndarray,
        timing: dict[str, float],
        network: OnnxModel | None = None,
        flowers: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One detector pass (of ``network``, by default the detector): boxes in ``image``'s
        pixels, scores, class ids, after NMS, and whether each box was read past a flower: a
        detector that reads flowers (single-stage), where none is in play (``flowers=False``),
        reads a box it took for one as its runner-up, as ``_classify`` does."""
        info = self.detector.info
        start = time.perf_counter()
        boxed, params = letterbox(image, info.input_size[0])
        batch = to_batch([boxed], info.scale, info.channel_order)
        _add_ms(timing, "letterbox", start)
        start = time.perf_counter()
        output = (network or self.detector).run(batch)
        _add_ms(timing, "detector", start)
        start = time.perf_counter()
        took = np.zeros(output.shape[2], bool)
        if not flowers and self._detector_flowers.any():
            class_scores = output[0, 4:, :].T  # a view: changed in place
            found = class_scores.max(axis=1)
            took = read_past_flowers(class_scores, self._detector_flowers)
            # A detector's score says a tile lies there as much as which: the box keeps it,
            # read as its runner-up (whose own score may lie under the floor: the box was
            # dropped), and asked about.
            rows = np.flatnonzero(took)
            class_scores[rows, class_scores[rows].argmax(axis=1)] = found[rows]
        boxes, scores, class_ids, anchors = decode_yolo_anchors(output, self.score_floor)
        keep = nms(boxes, scores, NMS_IOU, MAX_TILES)
        height, width = image.shape[:2]
        mapped = clip_boxes(to_original(boxes[keep], params), width, height)
        _add_ms(timing, "nms", start)
        return mapped.astype(np.float32), scores[keep], class_ids[keep], took[anchors[keep]]

    def _classify(
        self,
        image: np.ndarray,
        boxes: list[tuple[float, float, float, float]],
        scores: list[float],
        kinds: list[ModelClass],
        timing: dict[str, float],
        red_fives: bool = True,
        backs: Backs = UNSAID_BACKS,
        flowers: bool = True,
    ) -> tuple[list[Detection], set[tuple[float, float, float, float]]]:
        """The tiles read, and the boxes of those read as their runner-up because the
        classifier took them for a flower where none is in play (``flowers=False``)."""
        assert self.classifier is not None
        info = self.classifier.info
        start = time.perf_counter()
        to_read = [i for i, kind in enumerate(kinds) if self._reads_backs or not kind.face_down]
        crops = [crop_upright(image, boxes[i], kinds[i].rotated, info.input_size) for i in to_read]
        pieces = [kinds[i].name == "piece" for i in to_read]
        timing["crops"] = _ms(start)
        start = time.perf_counter()
        probabilities = self._run_classifier(crops, pieces)
        unsure = [i for i, row in enumerate(probabilities) if row.max() < READ_AGAIN_BELOW]
        if unsure:
            # A tile seen from across the table is upside down, and the classifier learnt both
            # ways up: an unsure read is read again turned round and the two averaged (1.5 points
            # of real-photo tiles), at the cost of one more small batch, not of every tile.
            turned = [np.ascontiguousarray(crops[i][::-1, ::-1]) for i in unsure]
            again = self._run_classifier(turned, [pieces[i] for i in unsure])
            probabilities[unsure] = (probabilities[unsure] + again) / 2
            self._read_round_pieces_again(crops, [i for i in unsure if pieces[i]], probabilities)
        kinds = list(kinds)
        for row, turned_kind in self._quarter_turned(crops, probabilities, to_read, kinds):
            kinds[to_read[row]] = turned_kind
        self._read_grown(image, boxes, scores, kinds, to_read, probabilities)
        if not red_fives:
            self._as_plain_fives(probabilities)
        took_a_flower = np.zeros(len(probabilities), bool)
        if not flowers:
            took_a_flower = read_past_flowers(probabilities, self._is_flower)
        timing["classifier"] = _ms(start)
        row_of = {tile: row for row, tile in enumerate(to_read)}
        tiles: list[Detection] = []
        read_crops: list[tuple[Detection, np.ndarray]] = []  # mahjong tiles the classifier read
        read_from: dict[int, tuple[int, float, ModelClass]] = {}  # id(tile): row, score, kind
        for i, (box, score, kind) in enumerate(zip(boxes, scores, kinds, strict=True)):
            if i not in row_of:
                tiles.append(
                    Detection(
                        None, box, score, score, 1.0, True, kind.rotated, score < LOW_CONFIDENCE
                    )
                )
                continue
            tile = self._read_tile(probabilities[row_of[i]], box, score, kind)
            if tile is not None:
                tiles.append(tile)
                read_from[id(tile)] = (row_of[i], score, kind)
                if kind.name != "piece":
                    read_crops.append((tile, crops[row_of[i]]))
        settled = _settled_by_colour(read_crops, backs)
        kept = [
            tile
            for tile in (settled.get(id(tile), tile) for tile in tiles)
            if tile is not None
            and not (tile.face_down and tile.detector_confidence < self.back_confidence)
        ]
        if not kept:
            return kept, set()
        boxes_kept = np.array([tile.box for tile in kept])
        weak = np.array([tile.low_confidence for tile in kept])
        dropped = inside_surer(boxes_kept, np.array([tile.confidence for tile in kept]), weak)
        if self.judge_scale:
            # The median tile is taken over the tiles left, not over pieces of them seen again.
            height, width = image.shape[:2]
            left = ~dropped
            dropped[left] = out_of_scale(boxes_kept[left], weak[left], width, height)
        kept = [tile for tile, drop in zip(kept, dropped, strict=True) if not drop]
        flower_faces = {
            tile.box
            for tile in kept
            if id(tile) in read_from and took_a_flower[read_from[id(tile)][0]]
        }
        return self._fit_the_set(kept, read_from, probabilities), flower_faces

    def read_places(
        self,
        image: np.ndarray,
        boxes: Sequence[tuple[float, float, float, float]],
        red_fives: bool = True,
        flowers: bool = True,
        backs: Backs = UNSAID_BACKS,
        beside: Sequence[tuple[float, float, float, float]] = (),
    ) -> list[Detection]:
        """The tiles read surely (``PLACE_READ_AT_LEAST``) at ``boxes``, places in ``image``
        where no box was found and the layout says a tile may lie: each cut as a tile lying as
        the place does (wider than tall: sideways) and read both ways up. A place read as no
        tile, a flower where none is in play, or less surely, gives none; read as a back, none
        but a blank 白 whose middle is the white of the faces ``beside`` it (the photo's
        face-up tiles' boxes) where the set's backs are coloured, as ``_settled_by_colour``
        tells the detector's boxes (a face read as 白 whose middle is coloured is a back, and
        gives none). No detector scored it: each tile's confidence is the classifier's."""
        height, width = image.shape[:2]
        boxes = [box for box in boxes if _share_inside(box, width, height) >= PLACE_INSIDE]
        if self.classifier is None or not boxes:
            return []
        info = self.classifier.info
        sideways = [box[2] - box[0] > box[3] - box[1] for box in boxes]
        crops = [
            crop_upright(image, box, turned, info.input_size)
            for box, turned in zip(boxes, sideways, strict=True)
        ]
        probabilities = self._read_two_ways(
            crops, [np.ascontiguousarray(c[::-1, ::-1]) for c in crops]
        )
        if not red_fives:
            self._as_plain_fives(probabilities)
        faces = self._is_tile & ~self._is_back
        if not flowers:
            faces &= ~self._is_flower
        best_reads = probabilities.argmax(axis=1)
        sure = probabilities.max(axis=1) >= PLACE_READ_AT_LEAST
        said_blank = self._is_back[best_reads] | (best_reads == self._blank)
        # The faces' white, measured only where a place is surely a back or a blank 白.
        white = (
            _white_of(image, beside, info.input_size)
            if backs.coloured and (sure & said_blank).any()
            else None
        )
        found = []
        for row in np.flatnonzero(sure):
            box, turned, crop, read = boxes[row], sideways[row], crops[row], probabilities[row]
            best = int(best_reads[row])
            code = info.classes[best].code
            if white is not None and self._is_back[best] and is_blank_face(crop, white):
                code = BLANK_CODE
            elif not faces[best] or (
                white is not None and code == BLANK_CODE and is_back(crop, white)
            ):
                continue
            runners = [j for j in np.argsort(-read, kind="stable")[1:3] if faces[j]]
            found.append(
                Detection(
                    code=code,
                    box=tuple(float(v) for v in box),  # type: ignore[arg-type]
                    confidence=float(read[best]),
                    detector_confidence=0.0,
                    classifier_confidence=float(read[best]),
                    face_down=False,
                    rotated=turned,
                    low_confidence=False,  # the layout asks about it as read in a place
                    placed=True,
                    alternatives=tuple(
                        (info.classes[j].code or info.classes[j].name, float(read[j]))
                        for j in runners
                        if read[j] >= ALTERNATIVE_MIN
                    ),
                )
            )
        return found

    def place_reader(
        self,
        image: np.ndarray,
        scale: tuple[float, float] = (1.0, 1.0),
        red_fives: bool = True,
        flowers: bool = True,
        backs: Backs = UNSAID_BACKS,
        beside: Sequence[Mapping[str, Any]] = (),
    ) -> Callable[[Sequence[tuple[float, float, float, float]]], list[Detection]]:
        """``read_places`` for the layout (``vision.layout.reconstruct``'s ``look``), of places
        given in pixels ``scale`` times ``image``'s (a photo's own, ``Photo.scale``), as are
        the photo's tiles ``beside`` them (detect JSON), and the tiles' boxes given back in
        them."""
        across, down = scale

        def mine(
            boxes: Sequence[tuple[float, float, float, float]],
        ) -> list[tuple[float, float, float, float]]:
            return [(x1 / across, y1 / down, x2 / across, y2 / down) for x1, y1, x2, y2 in boxes]

        faces = mine(
            [tile["box"] for tile in beside if tile.get("code") and not tile.get("face_down")]
        )

        def look(places: Sequence[tuple[float, float, float, float]]) -> list[Detection]:
            read = self.read_places(image, mine(places), red_fives, flowers, backs, faces)
            return list(PhotoReading(tuple(read)).scaled(across, down).tiles)

        return look

    def _as_plain_fives(self, probabilities: np.ndarray) -> None:
        """Each red five's share given to its plain five, in place: a set or rule set without
        red fives."""
        for red, five in self._red_to_five:
            probabilities[:, five] += probabilities[:, red]
            probabilities[:, red] = 0.0

    def _fit_the_set(
        self,
        tiles: list[Detection],
        read_from: dict[int, tuple[int, float, ModelClass]],
        probabilities: np.ndarray,
    ) -> list[Detection]:
        """The tiles, with reads that make more of a tile than one set holds read again as the
        next best (vision/set_counts.py). Reads the colour check settled stay as they are."""
        assert self.classifier is not None
        classes = self.classifier.info.classes
        class_codes = [c.code for c in classes]
        index = {c.code: i for i, c in enumerate(classes) if c.code is not None}
        counted = [k for k, tile in enumerate(tiles) if tile.code in index]
        rows = np.zeros((len(counted), len(classes)), np.float32)
        reads = []
        for k, position in enumerate(counted):
            tile = tiles[position]
            reads.append(index[str(tile.code)])
            source = read_from.get(id(tile))
            if source is None:
                rows[k, reads[-1]] = 1.0  # settled by colour: nothing else it may be
            else:
                rows[k] = np.where(self._allowed(source[2]), probabilities[source[0]], 0.0)
        changed = surplus_reads(reads, rows, class_codes)
        if not changed:
            return tiles
        again: dict[int, Detection | None] = {}
        for k, new_class in changed.items():
            tile = tiles[counted[k]]
            row, score, kind = read_from[id(tile)]
            again[counted[k]] = self._read_tile(
                probabilities[row], tile.box, score, kind, read_as=new_class
            )
        fitted = [again.get(k, tile) for k, tile in enumerate(tiles)]
        return [tile for tile in fitted if tile is not None]

    def _allowed(self, kind: ModelClass) -> np.ndarray:
        """The classes a box of this kind may be read as."""
        return self._allowed_for_piece if kind.name == "piece" else self._allowed_for_tile

    def _quarter_turned(
        self,
        crops: list[np.ndarray],
        probabilities: np.ndarray,
        to_read: list[int],
        kinds: list[ModelClass],
    ) -> list[tuple[int, ModelClass]]:
        """Crops the classifier calls no tile, read again a quarter turned each way; where that
        reads a tile surely (``TURNED_READ_AT_LEAST``) and more surely than as cut, its
        probabilities replace the row's (in place) and the tile's kind flips between upright and
        sideways.

        A tile lying at 45 degrees is as much upright as sideways, and the detector's guess is
        then a coin toss: cut the wrong way, a face is a sideways picture the classifier learnt
        to call no tile (12 of the 33 tiles missed on the real photos were such boxes).
        """
        rows = [
            row
            for row, tile in enumerate(to_read)
            if kinds[tile].name != "piece" and self._is_not_tile[probabilities[row].argmax()]
        ]
        if not rows:
            return []
        other_way = self._read_two_ways(  # a quarter turn each way
            *([np.ascontiguousarray(np.rot90(crops[row], k)) for row in rows] for k in (1, 3))
        )
        turned: list[tuple[int, ModelClass]] = []
        for row, other in zip(rows, other_way, strict=True):
            if self._is_not_tile[other.argmax()] or other.max() < TURNED_READ_AT_LEAST:
                continue
            if other[self._is_tile].max() <= probabilities[row][self._is_tile].max():
                continue
            probabilities[row] = other
            kind = kinds[to_read[row]]
            turned.append((row, replace(kind, rotated=not kind.rotated)))
        return turned

    def _read_round_pieces_again(
        self, crops: list[np.ndarray], rows: list[int], probabilities: np.ndarray
    ) -> None:
        """Unsure reads of xiangqi pieces, read again a quarter turned each way and averaged
        with the read upright and turned round (in place).

        A tile lies upright, upside down or sideways (the detector says which, and the crop is
        cut upright); a round piece lies at any angle. On the crops of the real xiangqi valid
        photos no model has seen, the piece reader read 98.6% right with unsure reads turned
        round only, as tiles are, and 99.4% with the quarter turns too (docs/training.md).
        """
        if not rows:
            return
        quarter = self._read_two_ways(  # a quarter turn each way, by the piece reader
            *([np.ascontiguousarray(np.rot90(crops[row], k)) for row in rows] for k in (1, 3)),
            pieces=True,
        )
        probabilities[rows] = (probabilities[rows] + quarter) / 2

    def _read_grown(
        self,
        image: np.ndarray,
        boxes: list[tuple[float, float, float, float]],
        scores: list[float],
        kinds: list[ModelClass],
        to_read: list[int],
        probabilities: np.ndarray,
    ) -> None:
        """Sure tile boxes read as no tile, read again (both ways up) from a box ``GROWN_BY``
        larger; where that names a tile at ``READ_AT_LEAST``, its probabilities replace the
        row's (in place)."""
        assert self.classifier is not None
        rows = [
            row
            for row, tile in enumerate(to_read)
            if scores[tile] >= SURE_BOX
            and kinds[tile].name != "piece"
            and self._is_not_tile[probabilities[row].argmax()]
        ]
        if not rows:
            return
        size = self.classifier.info.input_size
        crops = [
            crop_upright(
                image, grown(boxes[to_read[row]], GROWN_BY), kinds[to_read[row]].rotated, size
            )
            for row in rows
        ]
        again = self._read_two_ways(crops, [np.ascontiguousarray(c[::-1, ::-1]) for c in crops])
        for row, read in zip(rows, again, strict=True):
            best = int(read.argmax())
            if self._is_tile[best] and read[best] >= READ_AT_LEAST:
                probabilities[row] = read

    def _read_two_ways(
        self, first: list[np.ndarray], second: list[np.ndarray], *, pieces: bool = False
    ) -> np.ndarray:
        """The reads of each crop seen two ways (``first[i]`` and ``second[i]``), averaged; one
        batch for both, of the piece reader when ``pieces`` (``_run_classifier``)."""
        both = self._run_classifier(first + second, [pieces] * (2 * len(first)))
        averaged: np.ndarray = (both[: len(first)] + both[len(first) :]) / 2
        return averaged

    def _run_classifier(
        self, crops: list[np.ndarray], pieces: list[bool] | None = None
    ) -> np.ndarray:
        """The class probabilities of each crop: from the piece reader for the crops ``pieces``
        marks, where the folder has one, and from the classifier for the rest."""
        assert self.classifier is not None
        if self.pieces is None or pieces is None or not any(pieces):
            return read_crops(self.classifier, crops)
        marked = np.array(pieces)
        probabilities = np.zeros((len(crops), len(self.classifier.info.classes)), np.float32)
        for model, rows in ((self.classifier, ~marked), (self.pieces, marked)):
            probabilities[rows] = read_crops(model, [crops[i] for i in np.flatnonzero(rows)])
        return probabilities

    def _read_tile(
        self,
        probabilities: np.ndarray,
        box: tuple[float, float, float, float],
        detector_score: float,
        kind: ModelClass,
        read_as: int | None = None,
    ) -> Detection | None:
        """The classifier's reading of one crop (its best class, or ``read_as``), or None when
        it says the box holds no tile."""
        assert self.classifier is not None
        masked = np.where(self._allowed(kind), probabilities, 0.0)
        total = float(masked.sum()) or 1.0
        order = np.argsort(-masked, kind="stable")
        best = int(order[0]) if read_as is None else read_as
        chosen = self.classifier.info.classes[best]
        code = chosen.code
        classifier_score = float(masked[best]) / total
        if detector_score < self.detect_confidence and classifier_score < READ_AT_LEAST:
            return None  # a weak box beside a tile, kept only when it reads surely as one
        if chosen.face_down:
            confidence = detector_score * classifier_score
            return Detection(
                None, box, confidence, detector_score, classifier_score, True, kind.rotated,
                confidence < LOW_CONFIDENCE,
            )  # fmt: skip
        if code is None:
            return None  # not_a_tile: a detector false positive the classifier caught
        least = self.min_read_confidence
        if detector_score >= SURE_BOX and kind.name != "piece":  # measured on mahjong tiles only
            least = min(least, SURE_BOX_MIN_READ)
        if read_as is None and classifier_score < least:
            # No tile the classifier can name. A read moved to fit the set (read_as) keeps its
            # low score: the box held a tile surely enough, and a person is asked which.
            return None
        alternatives = tuple(
            (
                self.classifier.info.classes[j].code or self.classifier.info.classes[j].name,
                float(masked[j]) / total,
            )
            for j in [j for j in order if j != best][:2]
            if masked[j] / total >= ALTERNATIVE_MIN
        )
        confidence = detector_score * classifier_score
        return Detection(
            code=code,
            box=box,
            confidence=confidence,
            detector_confidence=detector_score,
            classifier_confidence=classifier_score,
            face_down=False,
            rotated=kind.rotated,
            low_confidence=confidence < LOW_CONFIDENCE,
            alternatives=alternatives,
        )


SECOND_OVER_FLOWER = 0.8
"""A face the classifier took for a flower where none is in play is read as the second
opinion's tile where that reads it at least this surely: the classifier's runner-up to a wrong
read is weaker evidence than a sure read of a classifier trained apart (IMG_3102's bird: 8s
second to 4f, the second opinion's 1s at 0.86). A first read's own runner-up never reaches it,
so an alternative this sure is the second's."""


def _white_of(
    image: np.ndarray, faces: Sequence[tuple[float, ...]], size: tuple[int, int]
) -> np.ndarray | None:
    """The white of the faces of the tiles whose boxes are ``faces`` (``face_white``), each
    cut as it lies (wider than tall: sideways)."""
    crops = [crop_upright(image, box, box[2] - box[0] > box[3] - box[1], size) for box in faces]
    return face_white(crops, [])


def _share_inside(box: Sequence[float], width: int, height: int) -> float:
    """How much of ``box`` lies inside a ``width`` x ``height`` photo."""
    x1, y1, x2, y2 = box
    area = (x2 - x1) * (y2 - y1)
    inside = max(0.0, min(x2, width) - max(x1, 0.0)) * max(0.0, min(y2, height) - max(y1, 0.0))
    return inside / area if area > 0 else 0.0


def _flower_face(tile: Detection) -> Detection:
    """A tile read as its runner-up because the classifier took it for a flower: asked about,
    and read as the second opinion's tile where that is sure of it."""
    if tile.alternatives and tile.alternatives[0][1] >= SECOND_OVER_FLOWER:
        second, share = tile.alternatives[0]
        return replace(
            tile,
            code=second,
            confidence=tile.detector_confidence * share,
            classifier_confidence=share,
            low_confidence=True,
            alternatives=((str(tile.code), tile.classifier_confidence), *tile.alternatives[1:]),
        )
    return replace(tile, low_confidence=True)


def _check_reader(reader: OnnxModel, classifier: OnnxModel | None, role: str) -> None:
    """A piece reader stands in for the classifier on some boxes, and a second opinion reads
    its tiles again: either must be a classifier with the same classes in the same order and
    the same input. ``role`` says which, for the error."""
    if classifier is None:
        raise ModelError(f"{reader.info.name} {role}, but the folder names no classifier")
    if reader.info.task != "classify":
        raise ModelError(f"{reader.info.name} is not a classifier")
    if [c.name for c in reader.info.classes] != [c.name for c in classifier.info.classes]:
        raise ModelError(
            f"{reader.info.name} reads other classes than {classifier.info.name}: "
            f"a reader that {role} must have the classifier's classes"
        )
    if (reader.info.input_size, reader.info.scale, reader.info.channel_order) != (
        classifier.info.input_size,
        classifier.info.scale,
        classifier.info.channel_order,
    ):
        raise ModelError(
            f"{reader.info.name} takes other crops than {classifier.info.name} "
            "(input size or normalisation)"
        )


def _settled_by_colour(
    read_crops: list[tuple[Detection, np.ndarray]], backs: Backs
) -> dict[int, Detection | None]:
    """Reads set right by colour beside the photo's face-up tiles (vision/face_colour.py), keyed
    by ``id`` of the tile they replace; None drops the tile.

    With coloured backs, blank 白 read as backs and backs read as 白 swap. In any set, a face read
    only weakly whose lightest part is not the set's white (a black keycap, a dark box) is no
    tile of the set; where the set's back colour is known, nor is a weakly read back of another
    hue (a fingertip).
    """
    white = face_white(
        [crop for tile, crop in read_crops if tile.code is not None],
        [crop for tile, crop in read_crops if tile.code is None],
    )
    if white is None:
        return {}
    judge_faces = looks_white(white)
    back = lab_of_hex(backs.colour) if backs.colour is not None else None
    settled: dict[int, Detection | None] = {}
    for tile, crop in read_crops:
        if backs.coloured and tile.face_down and is_blank_face(crop, white):
            settled[id(tile)] = replace(
                tile,
                code=BLANK_CODE,
                face_down=False,
                alternatives=(("back", tile.classifier_confidence),),
            )
        elif backs.coloured and tile.code == BLANK_CODE and is_back(crop, white):
            settled[id(tile)] = replace(tile, code=None, face_down=True, alternatives=())
        elif tile.low_confidence and not _of_the_set(
            tile, crop, white if judge_faces else None, back
        ):
            settled[id(tile)] = None
    return settled


def _of_the_set(
    tile: Detection, crop: np.ndarray, white: np.ndarray | None, back: np.ndarray | None
) -> bool:
    """Whether a tile's colour fits the set: a face's lightest part is the faces' white, a
    back's middle the set's back colour. Unknown colours (None) fit everything."""
    if tile.face_down:
        return back is None or is_back_of_set(crop, back)
    return white is None or is_face_of_set(crop, white)


def read_past_flowers(probabilities: np.ndarray, is_flower: np.ndarray) -> np.ndarray:
    """Where no flower is in play: which reads (rows of class scores) were taken for a flower.

    A face read as a flower is read as its runner-up (the bird 1s it most often is:
    docs/vision.md), unless it is surely a flower (``SURE_FLOWER``): one left on the table,
    which the layout sets aside as not played. The flower classes of those rows, and of every
    row not read as a flower (no flower among its alternatives), are zeroed in place: not folded
    into another class, as a red five is, for a flower's likeness says nothing of which tile it
    is. The classifier's reads and a single-stage detector's are read so alike.
    """
    best = probabilities.argmax(axis=1)
    took: np.ndarray = is_flower[best] & (probabilities.max(axis=1) < SURE_FLOWER)
    probabilities[np.ix_(~is_flower[best] | took, is_flower)] = 0.0
    return took


def _flower_classes(codes: list[str | None]) -> np.ndarray:
    return np.array([c is not None and tile_from_code(c).is_flower for c in codes], bool)


def _single_stage(
    box: tuple[float, float, float, float],
    score: float,
    kind: ModelClass,
    red_fives: bool = True,
    took_a_flower: bool = False,
) -> Detection:
    """A single-stage detector's read; one it took for a flower where none is in play (read as
    its runner-up) is asked about, as the classifier's are."""
    return Detection(
        code=kind.code if red_fives else plain_five(kind.code),
        box=box,
        confidence=score,
        detector_confidence=score,
        classifier_confidence=1.0,
        face_down=kind.face_down or kind.code is None,
        rotated=kind.rotated,
        low_confidence=score < LOW_CONFIDENCE or took_a_flower,
    )


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)


def _add_ms(timing: dict[str, float], stage: str, since: float) -> None:
    timing[stage] = round(timing.get(stage, 0.0) + _ms(since), 2)


def zoom_region(
    boxes: np.ndarray, width: int, height: int, input_size: int, below: float | None
) -> tuple[int, int, int, int] | None:
    """The part of a photo worth a second, closer look, or None.

    When the tiles found are small in the detector's input (median short side under ``below``
    pixels) and they lie together in a part of the photo that, enlarged to the
    input, shows them at least ``ZOOM_GAIN`` times bigger: that part, with a margin of three
    tiles around the boxes (tiles the first look missed lie beside the ones it found).
    """
    if below is None or len(boxes) == 0:
        return None
    scale = input_size / max(width, height)
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    tile = float(np.median(short))
    if tile * scale >= below:
        return None
    margin = 3 * tile
    x1 = max(0, int(boxes[:, 0].min() - margin))
    y1 = max(0, int(boxes[:, 1].min() - margin))
    x2 = min(width, int(boxes[:, 2].max() + margin))
    y2 = min(height, int(boxes[:, 3].max() + margin))
    if max(width, height) / max(x2 - x1, y2 - y1) < ZOOM_GAIN:
        return None
    return x1, y1, x2, y2


# (threads, the metadata files) -> (their modification times, the pair loaded from them).
_LOADED: dict[tuple[int | None, tuple[str, ...]], tuple[tuple[float, ...], TilePipeline]] = {}
# (threads, one metadata file) -> (its modification time, its session): shared by the pairs.
_SESSIONS: dict[tuple[int | None, str], tuple[float, OnnxModel]] = {}


def load_pipeline(
    models_dir: Path | str = SHIPPED_MODELS,
    threads: int | None = None,
    detector_meta: Path | None = None,
    classifier_meta: Path | None = None,
    pieces_meta: Path | None = None,
    variant: str | None = None,
    second_opinion_meta: Path | None = None,
) -> TilePipeline:
    """The model pair named by ``models_dir/default.json`` (and its piece reader and second
    opinion, if it names them), or the given metadata files. ``variant`` is the rule set the
    photos are of: the folder may name a detector for its tables
    (``vision.models.variant_detectors``).

    Loaded once per process: a second call with the same files returns the same sessions, so the
    app, the CLI and the evaluator never hold two copies of a model. Once a metadata file
    changes (a fine-tune, an adaptation or a rollback installs its metadata last), the pair is
    loaded again and the old one leaves the cache.
    """
    if detector_meta is None:
        models = named_models(Path(models_dir), variant)
        detector_meta, classifier_meta = models.detector, models.classifier
        pieces_meta, second_opinion_meta = models.pieces, models.second_opinion
    named = (classifier_meta, pieces_meta, second_opinion_meta)
    files = [Path(detector_meta)] + [Path(p) for p in named if p]
    # Which file is which is part of the key: a piece reader is no second opinion.
    key = (threads, tuple(_cache_name(p) if p else "" for p in (detector_meta, *named)))
    mtimes = tuple(_mtime(p) for p in files)
    cached = _LOADED.get(key)
    if cached is not None and cached[0] == mtimes:
        return cached[1]
    detector = _session(Path(detector_meta), threads)
    second_look = _second_look_session(Path(detector_meta), detector, threads)
    classifier = pieces = opinion = None
    if not detector.info.is_single_stage:
        if classifier_meta is None:
            raise ModelError(f"{detector.info.name} reads no tile codes and no classifier is named")
        classifier = _session(Path(classifier_meta), threads)
        if pieces_meta is not None:
            pieces = _session(Path(pieces_meta), threads)
        if second_opinion_meta is not None:
            opinion = _session(Path(second_opinion_meta), threads)
    pipeline = TilePipeline(detector, classifier, pieces, second_look, opinion)
    _LOADED[key] = (mtimes, pipeline)
    return pipeline


def _session(meta: Path, threads: int | None) -> OnnxModel:
    """One model's session, shared by every pipeline that reads with it (a rule set's own
    detector comes with the folder's readers, not with copies of them) while its metadata file
    is unchanged."""
    return _shared(meta, threads, "", lambda: load_info(meta))


def _second_look_session(meta: Path, detector: OnnxModel, threads: int | None) -> OnnxModel | None:
    """The session of the network the detector's metadata names for its second look, if any,
    shared as ``_session`` shares the detector's."""
    info = second_look_info(detector.info)
    return None if info is None else _shared(meta, threads, "#second_look", lambda: info)


def _shared(meta: Path, threads: int | None, part: str, info: Callable[[], ModelInfo]) -> OnnxModel:
    """The session of ``meta`` (``part``: which of its networks), made from ``info()`` once and
    kept while the metadata file is unchanged."""
    key = (threads, f"{_cache_name(meta)}{part}")
    mtime = _mtime(meta)
    cached = _SESSIONS.get(key)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    model = OnnxModel(info(), threads)
    _SESSIONS[key] = (mtime, model)
    return model


def _cache_name(meta: Path | str) -> str:
    """A metadata file's place, as the key its sessions are kept under. Its folder, not where a
    link to it points: the ONNX file it names is read beside it (``load_info``), so two folders
    linking one metadata file beside two networks (a candidate classifier tried beside the
    shipped models) hold two models, not one."""
    return os.path.abspath(meta)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
