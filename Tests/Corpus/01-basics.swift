// The Basics: constants, variables, type annotations, tuples, optionals, assertions.
//% cell
let maximumNumberOfLoginAttempts = 10
var currentLoginAttempt = 0
var welcomeMessage: String
welcomeMessage = "Hello"
print(welcomeMessage, maximumNumberOfLoginAttempts, currentLoginAttempt)
//% cell
var red, green, blue: Double
red = 0.1; green = 0.5; blue = 0.9
print(red + green + blue > 1.4)
let minValue = UInt8.min, maxValue = UInt8.max
print("UInt8 runs from \(minValue) to \(maxValue)")
//% cell
let http404Error = (404, "Not Found")
let (statusCode, statusMessage) = http404Error
print("The status code is \(statusCode), \(statusMessage)")
let http200Status = (statusCode: 200, description: "OK")
print(http200Status.statusCode, http200Status.description)
//% cell
let possibleNumber = "123"
let convertedNumber = Int(possibleNumber)
if let actualNumber = Int(possibleNumber) {
    print("The string \"\(possibleNumber)\" has an integer value of \(actualNumber)")
}
var serverResponseCode: Int? = 404
serverResponseCode = nil
print(serverResponseCode == nil, convertedNumber ?? 0)
//% cell
let possibleString: String? = "An optional string."
let forcedString: String = possibleString!
let assumedString: String! = "An implicitly unwrapped optional string."
let implicitString: String = assumedString
print(forcedString, implicitString)
let age = 3
assert(age >= 0, "A person's age can't be less than zero.")
precondition(age < 150)
print("age checked")
