/// Type sizes and spacing shared by every chart, chosen to be readable at notebook width.
enum ChartStyle {
    static let fontFamily = "DejaVu Sans"
    static let titleSize = 15.0
    static let subtitleSize = 11.0
    static let axisTitleSize = 12.0
    static let tickSize = 11.0
    static let annotationSize = 10.5
    static let margin = 14.0
}
