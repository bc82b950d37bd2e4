#!/usr/bin/env python3
"""Barista's intents extension: Hark runs it in this folder and talks to it
in JSON lines (docs/apps.md). It orders drinks from the coffee maker and
keeps the order history in $HARK_APP_DATA_DIR/orders.jsonl."""
import json
import os
import sys
import time

HISTORY = os.path.join(os.environ.get("HARK_APP_DATA_DIR", "."), "orders.jsonl")
OUT_OF = {"almond milk"}  # what the shop has run out of today


def send(message):
    print(json.dumps(message), flush=True)


def describe(p):
    words = [p.get("size"), p.get("roast"), p.get("numberOfShots"), p.get("coffeeDrink")]
    drink = " ".join(w for w in words if w)
    extras = [p[k] for k in ("milkAmount", "sugarAmount") if p.get(k)]
    return drink + (" with " + " and ".join(extras) if extras else "")


def resolve(parameter, p):
    if parameter == "size" and "size" not in p and p.get("coffeeDrink") == "espresso":
        return {"result": "success", "value": "small"}  # an espresso comes in one size
    if parameter == "milkAmount" and any(gone in p.get("milkAmount", "") for gone in OUT_OF):
        return {"result": "unsupported", "reason": "We're out of almond milk today."}
    return {"result": "default"}  # SiriKit's default: asks for a missing size


def handle(p):
    orders = []
    if os.path.exists(HISTORY):
        with open(HISTORY) as f:
            orders = [json.loads(line) for line in f if line.strip()]
    number = len(orders) + 1
    with open(HISTORY, "a") as f:
        f.write(json.dumps({"order": number, "drink": describe(p), "time": int(time.time())}) + "\n")
    return {"code": "success",
            "speech": f"Your {describe(p)} will be ready in two minutes at the counter. That's order {number}.",
            "output": {"order": number, "ready_in": "2 minutes"}}


send({"hark_extension": 1, "intents": ["orderDrink"], "stages": ["resolve", "confirm", "handle"]})
for line in sys.stdin:
    request = json.loads(line)
    parameters = request["intent"]["parameters"]
    if request["type"] == "resolve":
        answer = resolve(request["parameter"], parameters)
    elif request["type"] == "confirm":
        answer = {"code": "ready"}
    else:
        answer = handle(parameters)
    answer["id"] = request["id"]
    send(answer)
