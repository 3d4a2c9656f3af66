import LumaFormat
import LumaSynth
print("placeholder")
