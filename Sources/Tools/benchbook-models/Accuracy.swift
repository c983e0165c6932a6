import BenchbookImage
import BenchbookModels
import BenchbookTensor
import Foundation

/// `accuracy`: evaluates models on the Fashion-MNIST test set and writes a Markdown table.
enum AccuracyCommand {
    static func run(models: [String], dataDirectory: String, output: String?, command: String) throws {
        let testSet = try FashionMNIST(split: .test, directory: dataDirectory)
        let images = try testSet.tensor(range: 0..<testSet.count)
        let labels = testSet.labels.map(Int.init)
        var rows: [String] = []
        var matrices: [String] = []
        for path in models {
            let model = try Model(contentsOf: path, options: ModelOptions(threads: 2))
            let result = try model.evaluate(images: images, labels: labels, classNames: model.labels ?? FashionMNIST.classNames,
                                            showsProgress: false)
            print(result)
            matrices.append(result.description)
            let input = model.inputs.first
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            rows.append(String(format: "| `%@` | %@ | %@ | %d | %.2f %% | %d / %d | %.1f |",
                               (path as NSString).lastPathComponent, model.format.rawValue,
                               input?.elementType?.rawValue ?? "?", result.batchSize, result.accuracy * 100,
                               result.correct, result.count, Double(size) / 1024))
        }
        let table = """
        # Fashion-MNIST test accuracy of the course models, measured from Swift

        All 10,000 test images (Debian `dataset-fashion-mnist`, `t10k-*-ubyte.gz`), pixels / 255
        as float32 in [0, 1]; int8 models get the input quantised with the model's own scale and
        zero point. Run by `BenchbookModels` (`Model.evaluate`) on libtorch 1.13 (quantised engine
        qnnpack) and LiteRT (`ai-edge-litert` 2.3.0, XNNPACK), 2 threads.

        | model file | format | input | batch | accuracy | correct | size (KiB) |
        |---|---|---|---|---|---|---|
        \(rows.joined(separator: "\n"))

        Reproduce: `\(command)`
        (or `make models-accuracy`).

        ## Confusion matrices (rows: true class, columns: predicted class)

        ```
        \(matrices.joined(separator: "\n\n"))
        ```

        """
        if let output {
            try table.write(toFile: output, atomically: true, encoding: .utf8)
            print("wrote \(output)")
        } else {
            print(table)
        }
    }
}
