// Several names declared without values in one declaration, given their values later, in
// the same part of the program or a later one.
//% cell
var red, green, blue: Double
red = 1
green = 0.5
blue = 0.25
print(red + green + blue)
//% cell
let width, height: Int
if red > 0.5 {
    width = 640
    height = 480
} else {
    width = 0
    height = 0
}
print(width * height)
//% cell
var name: String, age: Int, tags: [String]
name = "Ada"
age = 36
tags = ["math", "engines"]
//% cell
tags.append("notes")
print(name, age, tags)
var x, y, z: Int
(x, y, z) = (1, 2, 3)
print(x + y + z)
//% cell
var total = 0, label: String
label = "sum"
total += x + y
print(label, total)
