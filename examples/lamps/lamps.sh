#!/bin/sh
# Lamps' intents extension, in plain POSIX shell. Hark starts it, it prints
# its handshake, answers one request and exits; Hark starts it again for the
# next one. It only takes the handle stage: Hark applies SiriKit's defaults
# to resolve and confirm. The lights' state is kept in $HARK_APP_DATA_DIR.
echo '{"hark_extension": 1, "intents": ["switchLights"], "stages": ["handle"]}'
IFS= read -r request || exit 0

# Hark writes requests on one line, keys sorted, without spaces.
number() { printf '%s' "$request" | sed -n "s/.*\"$1\":\([0-9][0-9]*\).*/\1/p"; }
parameter() { printf '%s' "$request" | sed -n "s/.*\"parameters\":{[^}]*\"$1\":\"\([^\"]*\)\".*/\1/p"; }

id=$(number id)
state=$(parameter state)
room=$(parameter room)
mkdir -p "$HARK_APP_DATA_DIR"
echo "${room:-everywhere} $state" >> "$HARK_APP_DATA_DIR/switches.log"
count=$(grep -c " $state\$" "$HARK_APP_DATA_DIR/switches.log")
if [ -n "$room" ]; then
    speech="The $room lights are $state."
else
    speech="All the lights are $state."
fi
printf '{"id": %s, "code": "success", "speech": "%s", "output": {"times": %s}}\n' "$id" "$speech" "$count"
